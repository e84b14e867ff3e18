CREATE TABLE "financers" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "interest_method" text DEFAULT 'reducing' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "processing_fee_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "financer_id" integer;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "date_of_birth" date;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "address" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "serial_number" text;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_financer_id_financers_id_fk" FOREIGN KEY ("financer_id") REFERENCES "public"."financers"("id") ON DELETE no action ON UPDATE no action;