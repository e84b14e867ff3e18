import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../db/client';

/** One row written: its table, the operation and the row (after an insert or update, before a delete). */
export type TWrite = { table: string; op: 'INSERT' | 'UPDATE' | 'DELETE'; row: Record<string, unknown> };

export type TWriteWatch = {
  /** A point in the log; `since` lists what was written after it. One cheap query. */
  mark: () => Promise<number>;
  /** Rows written after `mark`, oldest first. */
  since: (mark: number) => Promise<TWrite[]>;
};

const LOG_TABLE = 'zz_test_writes';

/**
 * Records every row the app writes to the test database, so a test can say "nothing was written"
 * exactly (an insert then a delete, an update to the same table: all show) for the price of one
 * query per check, where hashing every table takes ~100 ms on PGlite. Installs, in this database
 * only, an AFTER ROW trigger on every table of the public schema that appends the row to a log
 * table. An UPDATE that changes nothing, or only `ignoreColumns` of its table (values the server
 * changes on reads by design, such as a session's last_seen_at), is not recorded.
 */
export const watchWrites = async (
  db: DbOrTx,
  options: { ignoreColumns?: Record<string, readonly string[]> } = {},
): Promise<TWriteWatch> => {
  await db.execute(
    sql.raw(
      `create table if not exists ${LOG_TABLE} (id bigserial primary key, table_name text not null, op text not null, row_data jsonb)`,
    ),
  );
  await db.execute(
    sql.raw(`create or replace function ${LOG_TABLE}_record() returns trigger language plpgsql as $$
      declare
        ignored text[] := coalesce(TG_ARGV, '{}'::text[]);
        after_row jsonb;
      begin
        if TG_OP = 'UPDATE' then
          after_row := to_jsonb(NEW) - ignored;
          if after_row = to_jsonb(OLD) - ignored then return null; end if;
          insert into ${LOG_TABLE} (table_name, op, row_data) values (TG_TABLE_NAME, TG_OP, after_row);
        elsif TG_OP = 'INSERT' then
          insert into ${LOG_TABLE} (table_name, op, row_data) values (TG_TABLE_NAME, TG_OP, to_jsonb(NEW));
        else
          insert into ${LOG_TABLE} (table_name, op, row_data) values (TG_TABLE_NAME, TG_OP, to_jsonb(OLD));
        end if;
        return null;
      end $$`),
  );
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> ${LOG_TABLE}`,
  );
  for (const { table_name: table } of tables) {
    const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
    const ignored = (options.ignoreColumns?.[table] ?? []).map(literal).join(', ');
    await db.execute(
      sql.raw(
        `create or replace trigger ${LOG_TABLE} after insert or update or delete on "${table.replaceAll('"', '""')}" ` +
          `for each row execute function ${LOG_TABLE}_record(${ignored})`,
      ),
    );
  }
  return {
    mark: async () => {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql.raw(`select coalesce(max(id), 0)::text as id from ${LOG_TABLE}`),
      );
      return Number(row!.id);
    },
    since: async (mark) =>
      (
        await queryRows<{ table_name: string; op: TWrite['op']; row_data: Record<string, unknown> }>(
          db,
          sql`select table_name, op, row_data from ${sql.raw(LOG_TABLE)} where id > ${mark} order by id`,
        )
      ).map((r) => ({ table: r.table_name, op: r.op, row: r.row_data })),
  };
};

/** Writes in one line each, `op table {row…}`, cut to `width` characters, for failure messages. */
export const describeWrites = (writes: TWrite[], width = 160): string[] =>
  writes.map((w) => `${w.op} ${w.table} ${JSON.stringify(w.row)}`.slice(0, width));
