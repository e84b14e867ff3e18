import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { createPglite } from '../db/client';
import { resetToTemplate } from './template-reset';

/*
 * Test databases (design §8 pitfalls). Kept apart from harness.ts, which imports the whole app: the
 * setup file closes the pool after each file, and importing the app there would load every module
 * before a test file's vi.mock could replace one.
 */

let templateBlob: Blob | undefined;

/** Opens a fresh PGlite from the run's migrated, seeded template (~0.7 s). */
export const openTestPglite = async (): Promise<PGlite> => {
  templateBlob ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
  return createPglite({ loadDataDir: templateBlob });
};

/** This test file's database, reused (reset to the template) by each app of the file in turn. */
let pooled: { pglite: PGlite; isInUse: boolean } | undefined;

/**
 * A database at the seeded template for one app, and how to give it back: the file's pooled PGlite
 * reset to the template when it is free (~50 ms instead of ~0.7 s for a new one), a new PGlite when
 * another app of the same test holds it (closed with that app). closeTestDatabases ends the pool.
 */
export const acquireTestPglite = async (): Promise<{ pglite: PGlite; release: () => Promise<void> }> => {
  if (pooled?.isInUse) {
    const pglite = await openTestPglite();
    return { pglite, release: () => pglite.close() };
  }
  if (pooled) await resetToTemplate(pooled.pglite);
  else pooled = { pglite: await openTestPglite(), isInUse: false };
  const held = pooled;
  held.isInUse = true;
  return {
    pglite: held.pglite,
    release: async () => {
      held.isInUse = false;
    },
  };
};

/** Closes the file's pooled database (the setup file's afterAll; a PGlite left open keeps the worker alive). */
export const closeTestDatabases = async (): Promise<void> => {
  const closing = pooled;
  pooled = undefined;
  await closing?.pglite.close();
};

/**
 * The PGlite an app gets: the same instance, except that closing it gives it back to the pool
 * (the app closes its database when it closes). Methods are bound to the instance: PGlite keeps
 * its state in private fields, which a proxy cannot reach.
 */
export const borrowed = (pglite: PGlite, release: () => Promise<void>): PGlite =>
  new Proxy(pglite, {
    get(target, property) {
      if (property === 'close') return release;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
