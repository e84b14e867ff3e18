import type { PGlite } from '@electric-sql/pglite';

/**
 * A copy of the seeded template's rows inside the template itself (schema `kisht_template`), so a
 * test database can be put back to the template in one round of SQL (~tens of ms) instead of
 * loading a new PGlite from the dump (~0.7 s). Test-only; never in a migration.
 */
const SNAPSHOT_SCHEMA = 'kisht_template';

/** Copies every public table and sequence value into the snapshot schema (global setup, once). */
export const snapshotTemplate = async (pglite: PGlite): Promise<void> => {
  const tables = await publicTables(pglite);
  const statements = [`create schema ${SNAPSHOT_SCHEMA}`];
  for (const table of tables) {
    statements.push(`create table ${SNAPSHOT_SCHEMA}."${table}" as table public."${table}"`);
  }
  statements.push(
    `create table ${SNAPSHOT_SCHEMA}._sequences as
       select format('%I.%I', schemaname, sequencename) as name, last_value from pg_sequences
       where schemaname = 'public'`,
  );
  await pglite.exec(statements.join(';\n'));
};

const publicTables = async (pglite: PGlite): Promise<string[]> =>
  (
    await pglite.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).rows.map((row) => row.tablename);

/** The two ways back to the template of one database (resetToTemplate), built once per database. */
type TResetSql = { truncate: string; delete: string; resets: number };

const resetSql = new WeakMap<PGlite, TResetSql>();

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
export const resetToTemplate = async (pglite: PGlite): Promise<void> => {
  let sql = resetSql.get(pglite);
  if (!sql) {
    const tables = await publicTables(pglite);
    const sequences = (
      await pglite.query<{ name: string; last_value: string | null }>(
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
    resetSql.set(pglite, sql);
  }
  sql.resets += 1;
  await pglite.exec('rollback').catch(() => undefined);
  await pglite.exec(sql.resets % TRUNCATE_EVERY === 0 ? sql.truncate : sql.delete);
};
