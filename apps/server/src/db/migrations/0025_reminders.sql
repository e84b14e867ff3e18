CREATE TABLE "reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"emi_id" integer NOT NULL,
	"offset_days" integer NOT NULL,
	"channel" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"send_after" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"provider_ref" text,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "whatsapp_opt_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_emi_id_emis_id_fk" FOREIGN KEY ("emi_id") REFERENCES "public"."emis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_emi_offset_channel_uq" ON "reminders" USING btree ("emi_id","offset_days","channel");--> statement-breakpoint
CREATE INDEX "reminders_due_idx" ON "reminders" USING btree ("send_after") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "reminders_customer_idx" ON "reminders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "reminders_provider_ref_idx" ON "reminders" USING btree ("provider_ref");