CREATE TABLE "customer_counts" (
	"org_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"name" text NOT NULL,
	"retailer_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"total" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_counts_key_uq" ON "customer_counts" USING btree ("org_id","kind","name","retailer_id","status");--> statement-breakpoint
-- Issue 17 (hand-written from here): the customer list's total from counts kept by triggers.
CREATE FUNCTION "customer_counts_apply"(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO customer_counts (org_id, kind, name, retailer_id, status, total)
  SELECT c.org_id, k.kind, k.name, c.retailer_id, c.status, sum(c.delta)::int
  FROM jsonb_to_recordset(changes)
    AS c(org_id int, retailer_id int, status smallint, first_name text, last_name text, delta int)
  CROSS JOIN LATERAL (VALUES (0::smallint, ''), (1::smallint, c.first_name), (2::smallint, c.last_name)) AS k(kind, name)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(c.delta) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (org_id, kind, name, retailer_id, status)
  DO UPDATE SET total = customer_counts.total + excluded.total
$$;--> statement-breakpoint
CREATE FUNCTION "customer_counts_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_counts_apply(
    (SELECT coalesce(jsonb_agg(jsonb_build_object('org_id', org_id, 'retailer_id', retailer_id, 'status', status,
      'first_name', first_name, 'last_name', last_name, 'delta', 1)), '[]'::jsonb) FROM new_rows));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "customer_counts_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_counts_apply(
    (SELECT coalesce(jsonb_agg(jsonb_build_object('org_id', org_id, 'retailer_id', retailer_id, 'status', status,
      'first_name', first_name, 'last_name', last_name, 'delta', -1)), '[]'::jsonb) FROM old_rows));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "customer_counts_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_counts_apply(
    (SELECT coalesce(jsonb_agg(change), '[]'::jsonb) FROM (
      SELECT jsonb_build_object('org_id', org_id, 'retailer_id', retailer_id, 'status', status,
        'first_name', first_name, 'last_name', last_name, 'delta', -1) AS change FROM old_rows
      UNION ALL
      SELECT jsonb_build_object('org_id', org_id, 'retailer_id', retailer_id, 'status', status,
        'first_name', first_name, 'last_name', last_name, 'delta', 1) FROM new_rows
    ) AS changes));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "customer_counts_insert" AFTER INSERT ON "customers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_on_insert();--> statement-breakpoint
CREATE TRIGGER "customer_counts_delete" AFTER DELETE ON "customers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_on_delete();--> statement-breakpoint
CREATE TRIGGER "customer_counts_update" AFTER UPDATE ON "customers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_on_update();--> statement-breakpoint
INSERT INTO customer_counts (org_id, kind, name, retailer_id, status, total)
SELECT c.org_id, k.kind, k.name, c.retailer_id, c.status, count(*)::int
FROM customers c
CROSS JOIN LATERAL (VALUES (0::smallint, ''), (1::smallint, c.first_name), (2::smallint, c.last_name)) AS k(kind, name)
GROUP BY 1, 2, 3, 4, 5;;--> statement-breakpoint
CREATE INDEX "customer_counts_name_trgm_idx" ON "customer_counts" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit = 64);--> statement-breakpoint
-- A GIN index keeps new entries in a pending list that every search reads in full, until VACUUM (or
-- autovacuum's ANALYZE, which PGlite never runs) or the list's limit (4 MB) moves them into the
-- index: after a few thousand new customers a search read ~350 pages. The smallest limit (64 kB)
-- keeps that to a few pages.
ALTER INDEX "customers_first_name_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "customers_last_name_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "customers_mobile_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "devices_imei1_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "devices_imei2_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
SELECT gin_clean_pending_list(i::regclass) FROM unnest(ARRAY['customers_first_name_trgm_idx', 'customers_last_name_trgm_idx',
  'customers_mobile_trgm_idx', 'devices_imei1_trgm_idx', 'devices_imei2_trgm_idx']) AS i;
