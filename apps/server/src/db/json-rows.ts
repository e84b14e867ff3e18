import { getTableColumns, type InferSelectModel, is, type Table } from 'drizzle-orm';
import { PgJson, PgJsonb } from 'drizzle-orm/pg-core';

/**
 * A table's rows as `to_jsonb(row)` gives them (snake_case keys, timestamps as ISO strings) turned
 * into the rows drizzle's `select()` answers (camelCase properties, Date objects, numbers), by the
 * table's own column mappings. For statements that bring several tables' rows back at once (a
 * data-modifying CTE's `returning`, a `jsonb_agg` beside a row; issue 26), so no second read is
 * needed to type them. Unknown keys are left out; a missing column is null.
 */
export const rowsFromJson = <T extends Table>(table: T, json: unknown): InferSelectModel<T>[] => {
  if (!Array.isArray(json)) return [];
  const columns = Object.entries(getTableColumns(table));
  return json.map((item) => {
    const source = item as Record<string, unknown>;
    const row: Record<string, unknown> = {};
    for (const [property, column] of columns) {
      const value = source[column.name];
      if (value === null || value === undefined) row[property] = null;
      // JSON columns arrive parsed already; re-mapping would parse a JSON string value again.
      else if (is(column, PgJsonb) || is(column, PgJson)) row[property] = value;
      else row[property] = column.mapFromDriverValue(value);
    }
    return row as InferSelectModel<T>;
  });
};
