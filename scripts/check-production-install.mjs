// Issue 27's production check: what `npm run build` made, installed as production installs it
// (`npm ci --omit=dev` of the server and the agent: no tsx, no TypeScript, no dev tool) in a scratch copy outside the checkout,
// must start and answer. Starts the server (`node apps/server/dist/main.js`, NODE_ENV=production,
// any free port, embedded database in the scratch folder), asks it for the web app and an API
// answer, stops it; backs its data folder up and restores it as docs/deploy.md says, and checks
// the server serves the restored data; runs the device agent's `--help`. Exits non-zero, saying what failed, else 0.
// Run by `npm test` after `npm run build` (script test:production); the scratch copy is removed.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** Built output each workspace needs at run time, besides its package.json. */
const BUILT = {
  'apps/server': ['dist'],
  'apps/web': ['dist'],
  'apps/device-agent': ['dist', 'bin'],
};

const fail = (message) => {
  console.error(`production check failed: ${message}`);
  process.exitCode = 1;
};

const APP_CONFIG = '/api/organizations/get_org_app_config';
/** The organisation the backup check writes before the backup and asks for after the restore. */
const BACKUP_ORG_ID = 7;

const scratch = mkdtempSync(join(tmpdir(), 'kisht-production-'));

/** Starts the built server on PGlite in `dbDir`, any free port; its child and URL once it serves. */
const startServer = async (dbDir) => {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      PGLITE_DATA_DIR: dbDir,
      JWT_SECRET: 'production-check-jwt-secret-0123456789abcdef',
      OTP_PEPPER: 'production-check-otp-pepper-0123456789abcdef',
      DPC_DOWNLOAD_URL: 'https://downloads.example.com/kisht-dpc.apk',
      DPC_SIGNATURE_CHECKSUM: Buffer.alloc(32, 7).toString('base64url'),
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
    },
  });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const port = await new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port in 60 s; it printed:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const found = /"port":(\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolvePort(Number(found[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}); it printed:\n${output}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
};

/** Stops a server as a service manager would (SIGTERM) and waits for it to exit. */
const stopServer = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
};
let server;
try {
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(scratch, file));
  for (const workspace of manifest.workspaces) {
    mkdirSync(join(scratch, workspace), { recursive: true });
    cpSync(join(ROOT, workspace, 'package.json'), join(scratch, workspace, 'package.json'));
    for (const folder of BUILT[workspace] ?? []) {
      if (!existsSync(join(ROOT, workspace, folder)))
        throw new Error(`${workspace}/${folder} is missing: run npm run build`);
      cpSync(join(ROOT, workspace, folder), join(scratch, workspace, folder), { recursive: true });
    }
  }
  const started = Date.now();
  // Only what runs: the server and the device agent (the web app is its built files).
  const install = ['ci', '--omit=dev', '-w', '@kisht/server', '-w', '@kisht/device-agent'];
  execFileSync('npm', [...install, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`production install: ${Math.round((Date.now() - started) / 1000)} s`);
  for (const devTool of ['tsx', 'typescript', 'vitest', 'esbuild', 'react']) {
    if (existsSync(join(scratch, 'node_modules', devTool))) fail(`${devTool} was installed with --omit=dev`);
  }

  // The server, as deploy.md starts it (settings production refuses to start without).
  const dataDir = join(scratch, 'data');
  let running = await startServer(join(dataDir, 'db'));
  server = running.child;
  const page = await fetch(`${running.url}/`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root"')) fail(`GET / answered ${page.status}`);
  const api = await fetch(`${running.url}${APP_CONFIG}?org_id=${BACKUP_ORG_ID}`);
  const envelope = await api.json().catch(() => undefined);
  if (api.status !== 404 || envelope?.code !== 'NOT_FOUND') {
    fail(`GET get_org_app_config answered ${api.status} ${JSON.stringify(envelope)}`);
  }
  console.log(`production server: answered at ${running.url} (web app ${page.status}, API ${api.status})`);
  await stopServer(server);

  // One box's backup and restore (docs/deploy.md): with the server stopped, the data folder is
  // archived; restored into an empty place, the server serves what it held. What it held: an
  // organisation written while the server was stopped.
  const { PGlite } = await import(
    pathToFileURL(join(scratch, 'node_modules', '@electric-sql', 'pglite', 'dist', 'index.js')).href
  );
  const pglite = new PGlite(join(dataDir, 'db'));
  await pglite.query(
    `insert into organizations (id, name, company_name, theme, features)
     values ($1, 'Backup Check', 'Backup Check Pvt Ltd', $2, $3)`,
    [
      BACKUP_ORG_ID,
      { primaryColor: '#123456', secondaryColor: '#654321', logoUrl: null },
      { witnessLayout: false, paymentGateway: false },
    ],
  );
  await pglite.close();
  execFileSync('tar', ['-czf', join(scratch, 'kisht-backup.tar.gz'), '-C', dataDir, 'db']);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, 'kisht-backup.tar.gz'), '-C', dataDir]);
  running = await startServer(join(dataDir, 'db'));
  server = running.child;
  const restored = await fetch(`${running.url}${APP_CONFIG}?org_id=${BACKUP_ORG_ID}`);
  const restoredBody = await restored.text();
  if (restored.status !== 200 || !restoredBody.includes('Backup Check')) {
    fail(`after the restore, get_org_app_config answered ${restored.status} ${restoredBody.slice(0, 300)}`);
  } else console.log('production backup: restored data folder served (organisation found)');
  await stopServer(server);

  const help = execFileSync(process.execPath, ['apps/device-agent/dist/kisht-agent.js', '--help'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  if (!help.includes('kisht-agent')) fail(`kisht-agent --help printed: ${help}`);
  else console.log('production device agent: --help answered');
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  if (server) await stopServer(server);
  rmSync(scratch, { recursive: true, force: true });
}
