import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(REPO_ROOT, 'e2e/artifacts');
/** Preloaded into the processes a worker starts, so they exit when it does (a crash, a kill). */
export const EXIT_WITH_PARENT = join(REPO_ROOT, 'apps/server/src/scale-out/exit-with-parent.ts');

/** Asks the OS for a free loopback port (never a fixed one). */
export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Starts the real Kisht server (built web app, in-memory PGlite with the demo seed, embedded
 * broker) as a child process on a free port and waits until it answers; `extraEnv` adds to
 * its environment.
 */
export const startServer = async (
  /** More environment for the server (the MDM fakes' NANOMDM_*, APPLE_*, AMAPI_*). */
  extraEnv: Record<string, string> = {},
  /** The log file's name in e2e/artifacts. */
  logName = 'server.log',
): Promise<{ baseUrl: string; process: ChildProcess }> => {
  const port = await freePort();
  mkdirSync(ARTIFACTS, { recursive: true });
  const log = createWriteStream(join(ARTIFACTS, logName));
  // exit-with-parent: the server goes when the Playwright worker that started it goes, however.
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'src/main.ts'], {
    cwd: join(REPO_ROOT, 'apps/server'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PGLITE_DATA_DIR: 'memory://',
      LOG_LEVEL: 'info',
      // Journeys log the same users in many times within a minute; the cool-down and the daily cap
      // per number have their own tests.
      OTP_RESEND_AFTER_SECONDS: '0',
      OTP_DAILY_LIMIT_PER_MOBILE: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode}; see e2e/artifacts/${logName}`);
    try {
      const response = await fetch(`${baseUrl}/api/organizations/get_org_app_config?org_id=41`);
      if (response.ok) return { baseUrl, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start within 90 s; see e2e/artifacts/${logName}`);
};
