import { configDefaults, defineConfig } from 'vitest/config';
import { MODULE_MOCKING_TESTS, SERVER_TEST_SETUP } from './vitest.config';

/**
 * Files of the server suite that pick the machine's PostgreSQL or Mosquitto themselves; they run in
 * the `server` project only. Run in both projects at once, two copies would share one broker's
 * topics (a phone of one answering the servers of the other) and one database's sessions.
 */
const OWN_SERVICES_TESTS = [
  'src/**/*.postgres.test.ts',
  'src/scale-out/scale-out.test.ts',
  'src/db/connection-loss.test.ts',
  'src/device-channel/broker-probe.test.ts',
  'src/modules/devices/stale-intent.test.ts',
  'src/modules/ledger/ledger.service.test.ts',
];

/**
 * The server suite again, on the machine's PostgreSQL (issue 27): every createTestApp opens its app
 * on a database created from a migrated, seeded template (src/test/postgres-pool.ts) instead of
 * PGlite.
 */
export default defineConfig({
  test: {
    name: 'server-postgres',
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...MODULE_MOCKING_TESTS, ...OWN_SERVICES_TESTS],
    ...SERVER_TEST_SETUP,
    globalSetup: [...SERVER_TEST_SETUP.globalSetup, 'src/test/global-setup-postgres.ts'],
    env: { KISHT_TEST_DATABASE: 'postgres' },
    isolate: false,
  },
});
