-- Customer list search (issue 4): "contains" search on names, mobile and IMEIs stays fast with
-- 100k customers through trigram indexes; the newest-first list walks an index and stops early.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_first_name_trgm_idx" ON "customers" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_last_name_trgm_idx" ON "customers" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_mobile_trgm_idx" ON "customers" USING gin ("mobile" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "devices_imei1_trgm_idx" ON "devices" USING gin ("imei1" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "devices_imei2_trgm_idx" ON "devices" USING gin ("imei2" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_org_created_idx" ON "customers" USING btree ("org_id", "created_at" DESC, "id" DESC);
