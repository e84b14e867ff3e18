import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startServer } from './server';

/** Starts one server for the run; tests read its URL from KISHT_E2E_BASE_URL. */
export default async function globalSetup() {
  // The server serves WEB_DIST_DIR when set (a copy another build cannot change mid-run).
  const webDist = process.env.WEB_DIST_DIR ?? join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(
      `${webDist} has no index.html: run \`npm run build -w @kisht/web\` first (npm run test:e2e does)`,
    );
  }
  const server = await startServer();
  process.env.KISHT_E2E_BASE_URL = server.baseUrl;
  process.env.KISHT_E2E_SERVER_PID = String(server.process.pid);
}
