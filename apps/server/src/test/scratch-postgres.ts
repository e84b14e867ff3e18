import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL for tests (trust authentication, database `test`). */
export const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of database `name` on the server of `adminUrl` (same host, user and options). */
export const databaseUrl = (name: string, adminUrl = ADMIN_DATABASE_URL): string =>
  adminUrl.replace(/\/[^/]*$/, `/${name}`);

/** Whether PostgreSQL answers at `url` within 2 s (a suite on it is skipped when not). */
export const isPostgresReachable = async (url = ADMIN_DATABASE_URL): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
};

/**
 * A fresh database of its own on the machine's PostgreSQL, named `{prefix}_{random}`: its `url`,
 * the connected `admin` client (on the `test` database: it may end the scratch database's
 * sessions) and `drop()`, which drops the database WITH (FORCE) and ends the admin client.
 */
export const createScratchDatabase = async (prefix: string, adminUrl = ADMIN_DATABASE_URL) => {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  return {
    name,
    url: databaseUrl(name, adminUrl),
    admin,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
};
