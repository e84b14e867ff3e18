CREATE TABLE "key_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"requester_id" integer NOT NULL,
	"parent_id" integer,
	"app_type" smallint NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_paise" bigint,
	"payment_reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" integer,
	"decision_note" text,
	"movement_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "key_requests_quantity_positive" CHECK ("key_requests"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "key_prices_paise" jsonb;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_movement_id_ledger_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."ledger_movements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_requests_parent_idx" ON "key_requests" USING btree ("org_id","parent_id","status");--> statement-breakpoint
CREATE INDEX "key_requests_requester_idx" ON "key_requests" USING btree ("requester_id");