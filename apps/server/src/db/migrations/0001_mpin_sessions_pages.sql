ALTER TABLE "organizations" ADD COLUMN "pages" jsonb DEFAULT '{"dashboard":"cards","inactiveCustomer":"navigate"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "browser_name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "browser_version" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_type" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_platform" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mpin_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mpin_failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mpin_locked_until" timestamp with time zone;