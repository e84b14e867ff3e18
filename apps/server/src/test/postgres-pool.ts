import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { ADMIN_DATABASE_URL, databaseUrl } from './scratch-postgres';
import { catalogueOf, resetToTemplate, sqlSessionOf, type TSqlSession } from './template-reset';

/*
 * Test databases on the machine's PostgreSQL, for the `server-postgres` project
 * (vitest.postgres.config.ts), which runs the server suite again there: production runs on
 * PostgreSQL (issue 27). The same life as pglite-pool.ts: one database per worker, created from the
 * run's migrated and seeded template (global-setup-postgres.ts) and put back to it between apps.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL run: the template database's name; each database of the run starts so. */
    postgresRun: { template: string };
  }
}

/** Whether this test process runs the server suite on PostgreSQL rather than PGlite. */
export const isPostgresRun = (): boolean => process.env.KISHT_TEST_DATABASE === 'postgres';

type TWorkerDatabase = { name: string; url: string; session: pg.Client; sql: TSqlSession };

/** A new database created from the run's template, with a session of its own for resets. */
const createFromTemplate = async (): Promise<TWorkerDatabase> => {
  const { template } = inject('postgresRun');
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  const session = new pg.Client({ connectionString: url });
  session.on('error', () => {});
  await session.connect();
  return { name, url, session, sql: sqlSessionOf(session) };
};

/** Ends the database's reset session and drops it, with any session an app left open. */
const dropDatabase = async (database: TWorkerDatabase): Promise<void> => {
  await database.session.end().catch(() => undefined);
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database.name} with (force)`);
  } finally {
    await admin.end();
  }
};

/** This worker's database, reused across its files as pglite-pool.ts reuses its PGlite. */
let pooled: (TWorkerDatabase & { isInUse: boolean; schema: string }) | undefined;

/**
 * A PostgreSQL database at the seeded template for one app (its `url`), and how to give it back:
 * the worker's database reset to the template when it is free, a new one from the template when
 * another app of the same test holds it (dropped on release).
 */
export const acquireTestPostgres = async (): Promise<{ url: string; release: () => Promise<void> }> => {
  if (pooled?.isInUse) {
    const own = await createFromTemplate();
    return { url: own.url, release: () => dropDatabase(own) };
  }
  if (pooled) await resetToTemplate(pooled.sql);
  else {
    const created = await createFromTemplate();
    pooled = { ...created, isInUse: false, schema: await catalogueOf(created.sql) };
  }
  const held = pooled;
  held.isInUse = true;
  return {
    url: held.url,
    release: async () => {
      held.isInUse = false;
    },
  };
};

/**
 * The setup file's afterAll: keeps the worker's database for its next file when the file gave it
 * back with the template's catalogue; drops it otherwise (the run's teardown drops the rest).
 */
export const releaseTestPostgres = async (): Promise<void> => {
  const held = pooled;
  if (!held) return;
  if (!held.isInUse && (await catalogueOf(held.sql).catch(() => undefined)) === held.schema) return;
  pooled = undefined;
  await dropDatabase(held);
};
