/**
 * A copy of the seeded template's rows inside the template itself (schema `kisht_template`), so a
 * test database can be put back to the template in one round of SQL (~tens of ms) instead of
 * loading a new PGlite from the dump (~0.7 s) or creating a PostgreSQL database from the template
 * (~0.2 s). Test-only; never in a migration.
 */
const SNAPSHOT_SCHEMA = 'kisht_template';

/**
 * One session on a test database: a PGlite, or a node-postgres client seen through sqlSessionOf.
 * `exec` runs several statements separated by semicolons.
 */
export type TSqlSession = {
  query: <T>(sql: string) => Promise<{ rows: T[] }>;
  exec: (sql: string) => Promise<unknown>;
};

/** A node-postgres client as a TSqlSession (its simple query protocol runs several statements). */
export const sqlSessionOf = (client: {
  query: (sql: string) => Promise<{ rows: unknown[] }>;
}): TSqlSession => ({
  query: async <T>(sql: string) => (await client.query(sql)) as { rows: T[] },
  exec: (sql) => client.query(sql),
});

/** Copies every public table and sequence value into the snapshot schema (global setup, once). */
export const snapshotTemplate = async (session: TSqlSession): Promise<void> => {
  const tables = await publicTables(session);
  const statements = [`create schema ${SNAPSHOT_SCHEMA}`];
  for (const table of tables) {
    statements.push(`create table ${SNAPSHOT_SCHEMA}."${table}" as table public."${table}"`);
  }
  statements.push(
    `create table ${SNAPSHOT_SCHEMA}._sequences as
       select format('%I.%I', schemaname, sequencename) as name, last_value from pg_sequences
       where schemaname = 'public'`,
  );
  await session.exec(statements.join(';\n'));
};

const publicTables = async (session: TSqlSession): Promise<string[]> =>
  (
    await session.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).rows.map((row) => row.tablename);

/** The two ways back to the template of one database (resetToTemplate), built once per database. */
type TResetSql = { truncate: string; delete: string; resets: number };

const resetSql = new WeakMap<TSqlSession, TResetSql>();

/**
 * Every how many resets the tables are truncated rather than emptied with DELETE: DELETE leaves
 * dead rows behind (PGlite runs no autovacuum), TRUNCATE makes new files for every table and index
 * (~10× slower on these few rows).
 */
const TRUNCATE_EVERY = 25;

/**
 * Puts a test database back to the seeded template: every public table emptied (DELETE, every
 * TRUNCATE_EVERY-th time TRUNCATE) and refilled from the snapshot (foreign keys and triggers off
 * meanwhile: the rows were consistent when copied), every sequence back to its value. A transaction
 * left open by a failed test is rolled back first.
 */
export const resetToTemplate = async (session: TSqlSession): Promise<void> => {
  let sql = resetSql.get(session);
  if (!sql) {
    const tables = await publicTables(session);
    const sequences = (
      await session.query<{ name: string; last_value: string | null }>(
        `select name, last_value::text from ${SNAPSHOT_SCHEMA}._sequences`,
      )
    ).rows;
    const refill = [
      ...tables.map((table) => `insert into public."${table}" select * from ${SNAPSHOT_SCHEMA}."${table}"`),
      ...sequences.map(({ name, last_value: value }) =>
        value === null ? `select setval('${name}', 1, false)` : `select setval('${name}', ${value}, true)`,
      ),
      `set session_replication_role = default`,
    ];
    sql = {
      truncate: [
        `set session_replication_role = replica`,
        `truncate ${tables.map((table) => `public."${table}"`).join(', ')}`,
        ...refill,
      ].join(';\n'),
      delete: [
        `set session_replication_role = replica`,
        ...tables.map((table) => `delete from public."${table}"`),
        ...refill,
      ].join(';\n'),
      resets: 0,
    };
    resetSql.set(session, sql);
  }
  sql.resets += 1;
  await session.exec('rollback').catch(() => undefined);
  await session.exec(sql.resets % TRUNCATE_EVERY === 0 ? sql.truncate : sql.delete);
};

/**
 * What of a database's catalogue a test could change and a reset would not put back: relations
 * (temporary ones too), triggers, functions, types outside the system schemas, and session settings.
 */
export const catalogueOf = async (session: TSqlSession): Promise<string> =>
  (
    await session.query<{ schema: string | null }>(
      `select string_agg(item, ',' order by item) as schema from (
         select 'rel ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text as item
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
         union all
         select 'trigger ' || t.tgrelid::regclass::text || '.' || t.tgname || ' ' || t.tgenabled::text
           from pg_trigger t where not t.tgisinternal
         union all
         select 'function ' || n.nspname || '.' || p.oid::regprocedure::text
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname not in ('pg_catalog', 'information_schema')
         union all
         select 'type ' || n.nspname || '.' || t.typname
           from pg_type t join pg_namespace n on n.oid = t.typnamespace
          where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
         union all
         select 'setting ' || name || '=' || setting from pg_settings where source = 'session'
       ) items`,
    )
  ).rows[0]?.schema ?? '';
