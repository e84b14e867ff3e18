import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_STATE_PATH } from './state';

const run = promisify(execFile);
/** The repository root, where README step 3 runs `npx kisht-agent enrol`. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Issue 27: following README step 3 in a checkout leaves the agent's state file in its default
 * folder, and `npm test` then failed in `biome check .` on it. That folder is ignored by git and,
 * through git's ignore file, by Biome.
 */
describe("the agent's default state folder in a checkout", () => {
  const probe = join(ROOT, dirname(DEFAULT_STATE_PATH), `probe-${randomBytes(4).toString('hex')}.json`);
  let createdFolder = false;
  afterEach(async () => {
    await rm(createdFolder ? dirname(probe) : probe, { recursive: true, force: true });
  });

  it('is ignored by git and by Biome', async () => {
    await mkdir(dirname(probe), { recursive: true }).then((made) => {
      createdFolder = made !== undefined;
    });
    // Formatted as no Biome rule allows: were the file checked, Biome would fail on it.
    await writeFile(probe, '{"deviceId":1,   "secret":"x"}');
    await expect(run('git', ['check-ignore', '-q', probe], { cwd: ROOT })).resolves.toBeDefined();
    const biome = await run('npx', ['biome', 'check', '--no-errors-on-unmatched', probe], { cwd: ROOT });
    expect(biome.stdout + biome.stderr).toContain('Checked 0 files');
  }, 30_000);
});
