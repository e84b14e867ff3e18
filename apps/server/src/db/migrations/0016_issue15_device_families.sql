CREATE TABLE "mdm_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"request_type" text NOT NULL,
	"command_id" uuid,
	"policy_version" bigint,
	"status" text DEFAULT 'sent' NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "channel" text DEFAULT 'mqtt' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "mdm_id" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "mdm_info" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "mdm_info_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "enrolment_code_hash" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "uninstall_location" jsonb;--> statement-breakpoint
ALTER TABLE "mdm_commands" ADD CONSTRAINT "mdm_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mdm_commands_device_idx" ON "mdm_commands" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_channel_mdm_id_uq" ON "devices" USING btree ("channel","mdm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_enrolment_code_uq" ON "devices" USING btree ("org_id","enrolment_code_hash");--> statement-breakpoint
UPDATE "devices" AS d SET "channel" = CASE c."device_type" WHEN 3 THEN 'apple_mdm' WHEN 1 THEN 'android_management' ELSE 'mqtt' END FROM "customers" AS c WHERE c."id" = d."customer_id";
