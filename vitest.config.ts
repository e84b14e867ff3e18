import { defineConfig } from 'vitest/config';
import { isPostgresReachable } from './apps/server/src/test/scratch-postgres';

/**
 * The server suite runs a second time on the machine's PostgreSQL (127.0.0.1:5432, database
 * `test`, trust) when it answers (issue 27: production runs on PostgreSQL); without one, that
 * project is left out with a notice, as the *.postgres.test.ts files skip themselves.
 */
const hasPostgres = await isPostgresReachable();
if (!hasPostgres)
  console.warn('PostgreSQL at 127.0.0.1:5432 does not answer: the server-postgres project is left out');

export default defineConfig({
  test: {
    // Two cores; each server worker opens its own PGlite (~0.7 s from the template, ~200 MiB).
    maxWorkers: 2,
    projects: [
      'packages/domain',
      'apps/server',
      'apps/server/vitest.isolated.config.ts',
      ...(hasPostgres ? ['apps/server/vitest.postgres.config.ts'] : []),
      'apps/device-agent',
      'apps/web',
      'apps/web/vitest.isolated.config.ts',
    ],
  },
});
