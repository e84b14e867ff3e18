CREATE TABLE "media" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"document_type" text,
	"path" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "emi_pin" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "emi_pin_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emis" ADD COLUMN "penalty_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emis" ADD COLUMN "waived_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_path_uq" ON "media" USING btree ("path");--> statement-breakpoint
CREATE INDEX "media_customer_idx" ON "media" USING btree ("customer_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_org_emi_pin_uq" ON "customers" USING btree ("org_id","emi_pin");