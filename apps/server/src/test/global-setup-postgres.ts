import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';
import { seedDemo } from '../db/seed/seed';
import { ADMIN_DATABASE_URL, databaseUrl } from './scratch-postgres';
import { snapshotTemplate, sqlSessionOf } from './template-reset';

/**
 * The `server-postgres` project's global setup: one migrated, demo-seeded database on the machine's
 * PostgreSQL, `kisht_run_{random}_template`, from which every worker creates its own
 * (postgres-pool.ts). The teardown drops the template and every database of the run.
 */
export default async function setup(project: TestProject) {
  const run = `kisht_run_${randomBytes(4).toString('hex')}`;
  const template = `${run}_template`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const url = databaseUrl(template);
  const handle = await openDatabase({ databaseUrl: url });
  await seedDemo(handle.db);
  await handle.close();
  // A template must have no session open while databases are created from it.
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  await snapshotTemplate(sqlSessionOf(session));
  await session.query('analyze');
  await session.end();
  project.provide('postgresRun', { template });
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`${run}\\_%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
  };
}
