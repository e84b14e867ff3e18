import { readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { releaseTestDatabases } from './pglite-pool';
import { releaseTestPostgres } from './postgres-pool';

/*
 * The worker's pooled database (harness.ts) passes to its next file, unless this file changed its
 * schema or faked the clock: PostgreSQL inside PGlite reads the clock through Date, and a timeout it
 * armed under a fake date months ahead fires every millisecond once the real clock is back, for as
 * long as that database stays open.
 */
afterAll(async () => {
  const { testPath } = expect.getState();
  const source = testPath ? readFileSync(testPath, 'utf8') : '';
  await releaseTestDatabases({ isClockFaked: /useFakeTimers|setSystemTime/.test(source) });
  await releaseTestPostgres();
});
