import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPglite, openDatabase } from '../db/client';
import { seedDemo } from '../db/seed/seed';
import { snapshotTemplate } from './template-reset';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a tarball of a migrated, demo-seeded PGlite data directory. */
    pgliteTemplate: string;
  }
}

/**
 * Builds one migrated and seeded PGlite once per run (initdb takes seconds) and hands its dump to
 * every test file, which opens its own copy (design §8 pitfalls).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'kisht-pglite-'));
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  await snapshotTemplate(pglite);
  await pglite.exec('ANALYZE');
  const dump = await pglite.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
