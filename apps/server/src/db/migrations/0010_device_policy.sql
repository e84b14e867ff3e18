CREATE TABLE "org_signing_keys" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"kid" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "not_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "desired_controls" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "policy_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "policy_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_policy_version" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "push_token" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "last_woken_at" timestamp with time zone;--> statement-breakpoint
-- Enrolled devices start at policy version 1 with what they last reported (args of app_lock, wallpaper and lost mode are not known here: those features start off).
UPDATE "devices" SET "policy_version" = 1, "policy_updated_at" = now(), "desired_controls" = coalesce((SELECT jsonb_object_agg(key, jsonb_build_object('on', value)) FROM jsonb_each("reported_controls") WHERE key NOT IN ('lock', 'app_lock', 'app_hide_unhide', 'wallpaper', 'lost_mode', 'antitheft_lost_mode')), '{}'::jsonb) WHERE "enrolled_at" IS NOT NULL;
