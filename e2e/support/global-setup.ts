import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeMdm } from './fake-mdm';
import { REPO_ROOT, startServer } from './server';

/**
 * Starts the MDM fakes (fake NanoMDM, fake Android Management API) and then one server pointed at
 * them for the run; tests read the server's URL from KISHT_E2E_BASE_URL and the fakes' control API
 * from KISHT_E2E_FAKE_MDM_URL.
 */
export default async function globalSetup() {
  // The server serves WEB_DIST_DIR when set (a copy another build cannot change mid-run).
  const webDist = process.env.WEB_DIST_DIR ?? join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(
      `${webDist} has no index.html: run \`npm run build -w @kisht/web\` first (npm run test:e2e does)`,
    );
  }
  const fakes = await startFakeMdm();
  process.env.KISHT_E2E_FAKE_MDM_URL = fakes.info.controlUrl;
  process.env.KISHT_E2E_FAKE_MDM_PID = String(fakes.process.pid);
  const server = await startServer(fakes.info.env).catch((error: unknown) => {
    fakes.process.kill('SIGTERM');
    throw error;
  });
  process.env.KISHT_E2E_BASE_URL = server.baseUrl;
  process.env.KISHT_E2E_SERVER_PID = String(server.process.pid);
  // NanoMDM's webhook goes to the server, whose port is known only now.
  const told = await fetch(`${fakes.info.controlUrl}/control/kisht`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: server.baseUrl }),
  });
  if (!told.ok) throw new Error(`the MDM fakes refused the server URL: ${await told.text()}`);
}
