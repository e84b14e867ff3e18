import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Issue 27: README step 6 is copy and paste. The MDM fakes print the Kisht server's settings as
 * `export NAME='value'` lines a shell can eval (with --exports), and serve them at /control/env.
 */
describe('fake-mdm-main --exports', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGTERM');
  });

  it('prints shell exports that a shell evals into the settings, and serves them again', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/test/fake-mdm-main.ts', '--exports'], {
      cwd: SERVER_DIR,
    });
    children.push(child);
    let printed = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      printed += chunk;
    });
    while (!printed.includes('AMAPI_ACCESS_TOKEN')) await once(child.stdout, 'data');
    const lines = printed.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => /^export [A-Z_]+='[^']*'$/.test(line))).toBe(true);

    const { stdout } = await run(
      'bash',
      ['-c', 'eval "$EXPORTS"; echo "$KISHT_FAKE_MDM_CONTROL_URL|$NANOMDM_URL|$AMAPI_ENTERPRISE_NAME"'],
      { env: { PATH: process.env.PATH ?? '', EXPORTS: printed } },
    );
    const [controlUrl, nanomdmUrl, enterprise] = stdout.trim().split('|');
    expect(controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(nanomdmUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(enterprise).toBe('enterprises/LC00kisht');

    const served = await (await fetch(`${controlUrl}/control/env`)).text();
    expect(served).toContain(`export NANOMDM_URL='${nanomdmUrl}'`);
  }, 30_000);
});
