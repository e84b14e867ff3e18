import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server';

/**
 * Checks that the web app is built before any worker starts its server (each worker starts its
 * own: support/stack.ts, fixtures.ts). The server serves WEB_DIST_DIR when set (a copy another
 * build cannot change mid-run).
 */
export default async function globalSetup() {
  const webDist = process.env.WEB_DIST_DIR ?? join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(
      `${webDist} has no index.html: run \`npm run build -w @kisht/web\` first (npm run test:e2e does)`,
    );
  }
}
