import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pRetry from 'p-retry';
import pg from 'pg';
import * as schema from './schema';
import { countPgliteStatements, countPoolStatements, type StatementCounter } from './statement-counter';

/** The drizzle database, whichever driver is underneath (PGlite or node-postgres). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repositories accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/**
 * An open database. `statements` counts every statement sent through db, on either driver (the
 * statement budgets of issue 26 and the bench's --sql-stats read it).
 */
export type DatabaseHandle = {
  db: Db;
  close: () => Promise<void>;
  driver: 'pglite' | 'pg';
  statements: StatementCounter;
};

/** Extensions the schema needs (pg_trgm for customer search); every PGlite must load them. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Opens a PGlite with our extensions: a data directory, 'memory://', or a dumped template. */
export const createPglite = (source: string | { loadDataDir: Blob }): Promise<PGlite> =>
  typeof source === 'string'
    ? PGlite.create(source, { extensions: PGLITE_EXTENSIONS })
    : PGlite.create({ ...source, extensions: PGLITE_EXTENSIONS });

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenDatabaseOptions = {
  /** PostgreSQL URL; when set, node-postgres is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory or 'memory://'. */
  pgliteDataDir?: string;
  /** An already-created PGlite instance (tests open one from a migrated template). */
  pglite?: PGlite;
  /** Apply migrations (default true). */
  migrate?: boolean;
  /**
   * Told when PostgreSQL ends an idle pooled connection (a restart, a failover, a proxy's idle
   * timeout, `pg_terminate_backend`): the pool drops that connection and opens a new one when next
   * asked, so the process goes on. Default: nothing is said.
   */
  onConnectionLost?: (error: Error) => void;
};

/**
 * Opens the database and applies migrations: PostgreSQL when databaseUrl is given, else PGlite
 * (embedded, persisted under pgliteDataDir). The returned close() releases the connection.
 */
export const openDatabase = async (options: OpenDatabaseOptions): Promise<DatabaseHandle> => {
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client whose connection the server ended emits 'error' on the pool; with no listener
    // Node would end the whole process (issue 27). The pool has already discarded that client.
    // Each client's own listener (below) has said it already.
    pool.on('error', () => {});
    // A client in use (inside a transaction, between statements) whose session the server ends
    // emits 'error' on itself, not on the pool: so every client is listened to, once. Its next
    // statement fails, and a transaction runs again on a new connection (retryingTransactions).
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onConnectionLost?.(error));
      releaseOnFailedBegin(client);
    });
    retryStatementsOutsideTransactions(pool);
    const statements = countPoolStatements(pool);
    const db = retryingTransactions(drizzlePg(pool, { schema }) as unknown as Db);
    if (shouldMigrate) await migrateExclusively(pool);
    return { db, driver: 'pg', close: endPoolFully(pool), statements };
  }
  const client = options.pglite ?? (await createPglite(options.pgliteDataDir ?? 'memory://'));
  if (shouldMigrate) await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const statements = countPgliteStatements(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return { db, driver: 'pglite', close: () => client.close(), statements };
};

/**
 * drizzle-orm's node-postgres transaction() checks a client out and sends BEGIN before its
 * try/finally, so a BEGIN that fails (the connection ended while the client sat idle) never gives
 * the client back: the pool loses a slot for good and end() waits forever. This gives such a client
 * back, with its error (the pool then drops it), when its BEGIN fails. The fault test
 * (connection-fault.postgres.test.ts) ends connections under load and closes the pool after.
 */
const releaseOnFailedBegin = (client: pg.PoolClient): void => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
    if (!text || !/^\s*begin\b/i.test(text) || !(result instanceof Promise)) return result;
    return result.catch((error: Error) => {
      client.release(error);
      throw error;
    });
  };
};

/**
 * A close() for a node-postgres pool that resolves only once every connection's socket has ended.
 * pool.end() resolves as soon as it has asked its clients to end, while their sessions may still be
 * open on the server; whoever acts on "closed" then (dropping the database, a test's teardown) would
 * kill those sessions and the pool's clients would raise FATAL 57P01 with nobody listening.
 */
export const endPoolFully = (pool: pg.Pool): (() => Promise<void>) => {
  const ended = new Set<Promise<void>>();
  pool.on('connect', (client) => {
    ended.add(new Promise<void>((resolve) => client.once('end', () => resolve())));
  });
  return async () => {
    await pool.end();
    await Promise.all(ended);
  };
};

/**
 * Applies migrations to PostgreSQL while holding a session advisory lock, on one connection: server
 * processes starting together (design §7) would otherwise race on drizzle's own bookkeeping table
 * (`CREATE TABLE IF NOT EXISTS` is not safe concurrently) and on the migrations themselves. The
 * second process waits, then finds nothing left to apply.
 */
const migrateExclusively = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await client.query(`select pg_advisory_lock(hashtext('kisht:migrate'))`);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client.query(`select pg_advisory_unlock(hashtext('kisht:migrate'))`);
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    // Released with the error, the pool closes the connection, and with it the session's lock.
    client.release(failure);
  }
};

/** A database error and the errors it wraps (drizzle wraps the driver's as `cause`). */
function* causesOf(error: unknown): Generator<{ code?: unknown; message?: unknown; cause?: unknown }> {
  for (let e = error as { cause?: unknown } | undefined; e; e = e.cause as typeof e) yield e;
}

/** The SQLSTATE of a database error (node-postgres and PGlite set `code`; drizzle wraps them as `cause`). */
const sqlStateOf = (error: unknown): string | undefined => {
  for (const e of causesOf(error))
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
};

/**
 * PostgreSQL undid the statement or transaction whole and says to run it again: a serialization
 * failure (40001) or a deadlock's victim (40P01), whatever it wrote.
 */
const isUndoneWhole = (error: unknown) => ['40001', '40P01'].includes(sqlStateOf(error) ?? '');

/**
 * The session went away: the server ended it (57P01–57P03: admin, crash, a standby promoted), a
 * connection exception (class 08), or node-postgres's own words for a connection lost mid-query.
 * What was in flight on it may or may not have happened.
 */
const isSessionLost = (error: unknown): boolean => {
  const code = sqlStateOf(error);
  if (code && (/^57P0[123]$/.test(code) || code.startsWith('08'))) return true;
  for (const e of causesOf(error)) {
    if (
      typeof e.message === 'string' &&
      /Connection terminated|connection is closed|Client has encountered a connection error/i.test(e.message)
    )
      return true;
    if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return true;
  }
  return false;
};

/**
 * Whether a database error says the database was briefly out of reach (a session lost, or a
 * serialization failure or deadlock that outlived the retries): nothing of it stayed, and the
 * request may simply be sent again. The error handler answers these 503 (issue 27).
 */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  isUndoneWhole(error) || isSessionLost(error);

/** How often a statement or transaction is run again after a transient failure, 50–500 ms apart. */
export const TRANSACTION_RETRIES = 2;
const RETRY = { retries: TRANSACTION_RETRIES, minTimeout: 50, maxTimeout: 500, randomize: true };

/**
 * Makes the pool's own queries (statements outside a transaction) run again, up to
 * TRANSACTION_RETRIES times: any statement PostgreSQL undid whole (isUndoneWhole: a deadlock
 * between two processes recording device events, say), and a plain SELECT whose session was lost
 * (reading again changes nothing; a write whose connection died may or may not have happened).
 * Transactions are retried as a whole (retryingTransactions).
 */
const retryStatementsOutsideTransactions = (pool: pg.Pool): void => {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const textOf = (config: unknown) =>
    typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return query(...args);
    const isRead = /^\s*select\b/i.test(textOf(args[0]));
    return pRetry(() => query(...args), {
      ...RETRY,
      shouldRetry: (error) => isUndoneWhole(error) || (isRead && isSessionLost(error)),
    });
  };
};

/**
 * Makes `db.transaction()` (node-postgres) run the whole transaction again, up to
 * TRANSACTION_RETRIES times, when it failed before its callback had finished, on an error after
 * which nothing of it stayed (isDatabaseUnavailable: undone whole, or its session lost). A failure
 * after the callback finished (during COMMIT) is thrown as it came: whether it committed cannot be
 * known, and running it again could do it twice. A callback must keep its side effects outside the
 * database (publishing, SMS, HTTP) for after the commit, as the outbox does.
 */
const retryingTransactions = (db: Db): Db => {
  const transaction = db.transaction.bind(db);
  const retrying = ((
    callback: Parameters<Db['transaction']>[0],
    config?: Parameters<Db['transaction']>[1],
  ) => {
    let isCallbackDone = false;
    return pRetry(
      async () => {
        isCallbackDone = false;
        return transaction(async (tx) => {
          const result = await callback(tx);
          isCallbackDone = true;
          return result;
        }, config);
      },
      { ...RETRY, shouldRetry: (error) => !isCallbackDone && isDatabaseUnavailable(error) },
    );
  }) as Db['transaction'];
  return Object.assign(db, { transaction: retrying });
};

/** Runs raw SQL and returns its rows (both drivers answer `{ rows }`). For tests and jobs. */
export const queryRows = async <T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * PGlite runs no autovacuum, so its planner never learns table sizes and skips the search indexes.
 * Runs ANALYZE now (in the background) and every intervalMs; returns a function that stops it.
 */
export const keepPlannerStatistics = (
  database: DatabaseHandle,
  intervalMs: number,
  log: { warn: (obj: object, msg: string) => void },
): (() => void) => {
  const analyze = () => {
    database.db.execute(sql`ANALYZE`).catch((error: unknown) => log.warn({ err: error }, 'ANALYZE failed'));
  };
  analyze();
  const timer = setInterval(analyze, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
