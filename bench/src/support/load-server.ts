import type { AddressInfo } from 'node:net';
import { buildApp } from '@kisht/server/app';
import { loadConfig } from '@kisht/server/config';
import { createPglite, openDatabase } from '@kisht/server/db/client';
import { customers } from '@kisht/server/db/schema';
import { DEMO_ORG_ID, seedDemo } from '@kisht/server/db/seed/seed';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { seedManyCustomers } from '../seed-customers';
import { BENCH_SERVER_ENV, loginDemoRetailer } from './bench-server';

/**
 * The database of a load benchmark: PGlite in memory, or (with `postgresUrl`, e.g. the machine's
 * postgres://postgres@127.0.0.1:5432/test) a fresh database on that server, dropped by `close`.
 * Seeded with the demo organisations and `customerCount` more customers of the demo retailer;
 * `customerIds` are 500 of them, for details calls.
 */
export const openLoadDatabase = async (customerCount: number, postgresUrl?: string) => {
  let databaseUrl: string | undefined;
  let admin: pg.Client | undefined;
  if (postgresUrl) {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const name = `kisht_bench_${Date.now()}`;
    await admin.query(`create database ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const pglite = databaseUrl ? undefined : await createPglite('memory://');
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { pglite: pglite! });
  await seedDemo(database.db);
  await seedManyCustomers(database.db, customerCount);
  await database.db.execute(sql`analyze`);
  const customerIds = (
    await database.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.orgId, DEMO_ORG_ID))
      .limit(500)
  ).map((row) => row.id);
  return {
    pglite,
    databaseUrl,
    customerIds,
    kind: databaseUrl ? 'PostgreSQL' : 'PGlite',
    close: async () => {
      await database.close();
      if (admin) {
        await admin.query(`drop database ${new URL(databaseUrl!).pathname.slice(1)}`);
        await admin.end();
      }
    },
  };
};

export type TLoadDatabase = Awaited<ReturnType<typeof openLoadDatabase>>;

/**
 * Starts the real server on 127.0.0.1 (port 0) over `database` with `env` added to the test
 * configuration (e.g. the LOAD_SHED_* settings), and logs the demo retailer in by OTP. `stop`
 * closes the HTTP side only on PGlite (the next phase reuses the database, which closing the app
 * would close); on PostgreSQL the app closes its own pool.
 */
export const startLoadApp = async (database: TLoadDatabase, env: Record<string, string>) => {
  const app = await buildApp(
    loadConfig({
      ...BENCH_SERVER_ENV,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ...env,
    }),
    { ...(database.pglite ? { pglite: database.pglite } : {}), sms: { send: async () => {} } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    token: await loginDemoRetailer({ app }),
    stop: async () => {
      if (database.pglite) await new Promise<void>((resolve) => app.server.close(() => resolve()));
      else await app.close();
    },
  };
};
