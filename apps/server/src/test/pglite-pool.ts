import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { createPglite } from '../db/client';
import { catalogueOf, resetToTemplate } from './template-reset';

/*
 * Test databases (design §8 pitfalls). Kept apart from harness.ts, which imports the whole app: the
 * setup file hands the pool on (or closes it) after each file, and importing the app there would
 * load every module before a test file's vi.mock could replace one.
 */

let templateBlob: Blob | undefined;

/** Opens a fresh PGlite from the run's migrated, seeded template (~0.7 s). */
export const openTestPglite = async (): Promise<PGlite> => {
  templateBlob ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
  return createPglite({ loadDataDir: templateBlob });
};

/**
 * This worker's database, reused (reset to the template) by each app in turn, across the test files
 * the worker runs (the server project does not isolate files: vitest.config.ts). `schema` is its
 * catalogue as opened from the template (catalogueOf), to tell whether a file left objects behind.
 */
let pooled: { pglite: PGlite; isInUse: boolean; schema: string } | undefined;

/**
 * A database at the seeded template for one app, and how to give it back: the worker's pooled
 * PGlite reset to the template when it is free (~50 ms instead of ~0.7 s for a new one), a new
 * PGlite when another app of the same test holds it (closed with that app).
 */
export const acquireTestPglite = async (): Promise<{ pglite: PGlite; release: () => Promise<void> }> => {
  if (pooled?.isInUse) {
    const pglite = await openTestPglite();
    return { pglite, release: () => pglite.close() };
  }
  if (pooled) await resetToTemplate(pooled.pglite);
  else {
    const pglite = await openTestPglite();
    pooled = { pglite, isInUse: false, schema: await catalogueOf(pglite) };
  }
  const held = pooled;
  held.isInUse = true;
  return {
    pglite: held.pglite,
    release: async () => {
      held.isInUse = false;
    },
  };
};

/**
 * The setup file's afterAll: keeps the pooled database for the worker's next file when the file
 * gave it back, did not fake the clock (`isClockFaked`: see setup-file.ts) and left its catalogue
 * as the template's (resetToTemplate restores rows and sequences, not a trigger, function, table or
 * session setting a test added); closes it otherwise, so the next file opens a fresh one.
 */
export const releaseTestDatabases = async (options: { isClockFaked: boolean }): Promise<void> => {
  const held = pooled;
  if (!held) return;
  if (!held.isInUse && !options.isClockFaked) {
    await held.pglite.exec('rollback').catch(() => undefined);
    if ((await catalogueOf(held.pglite).catch(() => undefined)) === held.schema) return;
  }
  await closeTestDatabases();
};

/** Closes the worker's pooled database. */
export const closeTestDatabases = async (): Promise<void> => {
  const closing = pooled;
  pooled = undefined;
  await closing?.pglite.close();
};

/**
 * The PGlite an app gets: the same instance, except that closing it gives it back to the pool
 * (the app closes its database when it closes). Methods are bound to the instance: PGlite keeps
 * its state in private fields, which a proxy cannot reach. What the app sets on it (the statement
 * counter's wrappers) stays on the proxy, so the pooled instance goes back as it came.
 */
export const borrowed = (pglite: PGlite, release: () => Promise<void>): PGlite => {
  const own = new Map<PropertyKey, unknown>();
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'close') return release;
      if (own.has(property)) return own.get(property);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(_target, property, value) {
      own.set(property, value);
      return true;
    },
  });
};
