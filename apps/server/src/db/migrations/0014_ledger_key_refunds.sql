DROP INDEX "ledger_movements_key_use_uq";--> statement-breakpoint
ALTER TABLE "ledger_movements" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_movements_key_use_uq" ON "ledger_movements" USING btree ("org_id","imei","app_type") WHERE kind = 'key_use' AND refunded_at IS NULL;