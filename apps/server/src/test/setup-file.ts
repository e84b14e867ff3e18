import { afterAll } from 'vitest';
import { closeTestDatabases } from './pglite-pool';

// Each test file's pooled database (harness.ts) closes with the file.
afterAll(closeTestDatabases);
