import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * One statement as the database received it: a simple Query or an extended-protocol Execute,
 * BEGIN/COMMIT/ROLLBACK included. `ms` is from the call to its answer (waiting for PGlite's single
 * connection included); `rows` is what came back (0 when the statement failed).
 */
export type StatementEvent = { text: string; ms: number; rows: number };

/** A running count of statements: the scope's events, in the order they were issued. */
export type StatementScope = { readonly statements: StatementEvent[]; isOpen: boolean };

/**
 * Counts every statement a database handle sends, on either driver, and attributes each to the
 * async context that issued it (so a request's statements are told apart from a job's).
 * `measure(fn)` answers the statements issued by fn's own async tree until fn settled: what a
 * request costs before its answer (issue 26's statement budgets).
 */
export type StatementCounter = {
  /** Statements since the counter was installed, whoever sent them. */
  readonly total: number;
  /** Runs fn and answers its result with the statements it issued until it settled. */
  measure: <T>(fn: () => Promise<T>) => Promise<{ result: T; statements: StatementEvent[] }>;
  /** Calls observer for each statement (any context) until the returned function is called. */
  observe: (observer: (event: StatementEvent) => void) => () => void;
};

type Recorder = { begin: (text: string) => (rows: number) => void };

/** Which measure() an async context belongs to (one for every counter). */
const storage = new AsyncLocalStorage<StatementScope>();

/**
 * Runs fn outside any measure() (work a request starts but does not wait for, such as a bulk's
 * later chunks), so its statements are not counted as the request's.
 */
export const runDetached = <T>(fn: () => T): T => storage.exit(fn);

const createRecorder = (): { counter: StatementCounter; recorder: Recorder } => {
  const observers = new Set<(event: StatementEvent) => void>();
  let total = 0;
  const recorder: Recorder = {
    begin: (text) => {
      total += 1;
      const scope = storage.getStore();
      const start = performance.now();
      return (rows) => {
        if (!scope?.isOpen && observers.size === 0) return;
        const event = { text: text.replace(/\s+/g, ' ').trim(), ms: performance.now() - start, rows };
        if (scope?.isOpen) scope.statements.push(event);
        for (const observer of observers) observer(event);
      };
    },
  };
  const counter: StatementCounter = {
    get total() {
      return total;
    },
    measure: async (fn) => {
      const scope: StatementScope = { statements: [], isOpen: true };
      try {
        // Awaited inside the scope: a lazy thenable (light-my-request's inject) starts its work
        // when awaited, which must happen in the scope's async context.
        const result = await storage.run(scope, async () => await fn());
        return { result, statements: [...scope.statements] };
      } finally {
        scope.isOpen = false;
      }
    },
    observe: (observer) => {
      observers.add(observer);
      return () => observers.delete(observer);
    },
  };
  return { counter, recorder };
};

const rowCount = (result: unknown): number => {
  const rows = (result as { rows?: unknown[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows.length : 0;
};

/** Awaits a driver call and reports it to the recorder, rows or failure alike. */
const timed = async <T>(recorder: Recorder, text: string, call: () => Promise<T>): Promise<T> => {
  const done = recorder.begin(text);
  try {
    const result = await call();
    done(rowCount(result));
    return result;
  } catch (error) {
    done(0);
    throw error;
  }
};

/**
 * Counts a PGlite's statements: `query` and `exec`, and inside `transaction()` its BEGIN, the
 * callback's own queries and its COMMIT or ROLLBACK (PGlite runs those on a private path that a
 * wrapper of `query` alone never sees). Returns the counter.
 */
export const countPgliteStatements = (pglite: PGlite): StatementCounter => {
  const { counter, recorder } = createRecorder();
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  const transaction = pglite.transaction.bind(pglite);
  pglite.query = ((text: string, ...rest: unknown[]) =>
    timed(recorder, text, () =>
      (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
    )) as PGlite['query'];
  pglite.exec = ((text: string, ...rest: unknown[]) =>
    timed(recorder, text, () =>
      (exec as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
    )) as PGlite['exec'];
  pglite.transaction = (async <T>(callback: (tx: Transaction) => Promise<T>) => {
    // BEGIN is sent once PGlite's transaction lock is ours; its COMMIT (or ROLLBACK) when the
    // callback settles. Each is a statement on the connection.
    let finish: ((rows: number) => void) | undefined;
    try {
      const result = await transaction(async (tx) => {
        recorder.begin('BEGIN')(0);
        const wrapped: Transaction = {
          ...tx,
          query: ((text: string, ...rest: unknown[]) =>
            timed(recorder, text, () =>
              (tx.query as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
            )) as Transaction['query'],
          exec: ((text: string, ...rest: unknown[]) =>
            timed(recorder, text, () =>
              (tx.exec as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
            )) as Transaction['exec'],
          sql: tx.sql,
          rollback: tx.rollback,
          get closed() {
            return tx.closed;
          },
        };
        try {
          const value = await callback(wrapped);
          finish = recorder.begin('COMMIT');
          return value;
        } catch (error) {
          finish = recorder.begin('ROLLBACK');
          throw error;
        }
      });
      finish?.(0);
      return result;
    } catch (error) {
      finish?.(0);
      throw error;
    }
  }) as PGlite['transaction'];
  return counter;
};

/**
 * Counts a node-postgres pool's statements: every `query` of every client the pool connects (a
 * pool's own `query` borrows a client, so it is counted once, there). Returns the counter.
 */
export const countPoolStatements = (pool: pg.Pool): StatementCounter => {
  const { counter, recorder } = createRecorder();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
      const done = recorder.begin(text);
      const last = args.at(-1);
      if (typeof last === 'function') {
        // The callback form (what pool.query uses): report when the callback is called.
        args[args.length - 1] = (error: unknown, result: unknown) => {
          done(error ? 0 : rowCount(result));
          (last as (e: unknown, r: unknown) => void)(error, result);
        };
        return query(...args);
      }
      const answer = query(...args);
      if (answer && typeof (answer as Promise<unknown>).then === 'function') {
        (answer as Promise<unknown>).then(
          (result) => done(rowCount(result)),
          () => done(0),
        );
      }
      return answer;
    };
  });
  return counter;
};
