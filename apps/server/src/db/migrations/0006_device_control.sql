CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"latitude" text NOT NULL,
	"longitude" text NOT NULL,
	"accuracy_m" integer,
	"source" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" integer NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"detected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "result" jsonb;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_controls" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "sims" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "last_location" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "access" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_changes" ADD CONSTRAINT "sim_changes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_changes" ADD CONSTRAINT "sim_changes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "locations_device_at_idx" ON "locations" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "sim_changes_org_detected_idx" ON "sim_changes" USING btree ("org_id","detected_at");--> statement-breakpoint
CREATE INDEX "device_commands_batch_idx" ON "device_commands" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "device_commands_device_created_idx" ON "device_commands" USING btree ("device_id","created_at");