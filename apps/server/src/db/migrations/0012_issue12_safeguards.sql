CREATE TABLE "customer_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"language" text NOT NULL,
	"text_version" text NOT NULL,
	"text" text NOT NULL,
	"signature_media_id" integer,
	"recorded_by" integer NOT NULL,
	"consented_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_counters" (
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"mobile" text NOT NULL,
	"purpose" text NOT NULL,
	"body" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"otp_challenge_id" integer,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"not_after" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "desired_lock_screen" jsonb;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_signature_media_id_media_id_fk" FOREIGN KEY ("signature_media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_consents_customer_uq" ON "customer_consents" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "org_counters_pk" ON "org_counters" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "sms_outbox_due_idx" ON "sms_outbox" USING btree ("next_attempt_at") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "sms_outbox_mobile_created_idx" ON "sms_outbox" USING btree ("mobile","created_at");--> statement-breakpoint
CREATE INDEX "otp_mobile_created_idx" ON "otp_challenges" USING btree ("mobile","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_org_idempotency_uq" ON "payments" USING btree ("org_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
-- Challenges made before the SMS outbox were sent as they were made.
UPDATE "otp_challenges" SET "sent_at" = "created_at";--> statement-breakpoint
-- Receipt numbers go on per organisation above every number the global sequence handed out.
INSERT INTO "org_counters" ("org_id", "name", "value") SELECT "org_id", 'receipt', max("id") FROM "payments" GROUP BY "org_id";
