CREATE TABLE "autopay_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"mandate_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"emi_id" integer NOT NULL,
	"attempt" smallint NOT NULL,
	"amount_paise" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"charge_date" date NOT NULL,
	"gateway_order_id" text,
	"gateway_payment_id" text,
	"failure_reason" text,
	"payment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "autopay_mandates" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"max_amount_paise" bigint NOT NULL,
	"frequency" text NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"gateway_customer_id" text NOT NULL,
	"auth_order_id" text NOT NULL,
	"auth_link" text,
	"token_id" text,
	"ended_by" text,
	"end_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_mandate_id_autopay_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."autopay_mandates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_emi_id_emis_id_fk" FOREIGN KEY ("emi_id") REFERENCES "public"."emis"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_mandates" ADD CONSTRAINT "autopay_mandates_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_mandates" ADD CONSTRAINT "autopay_mandates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_charges_emi_attempt_uq" ON "autopay_charges" USING btree ("emi_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_charges_gateway_order_uq" ON "autopay_charges" USING btree ("gateway_order_id");--> statement-breakpoint
CREATE INDEX "autopay_charges_mandate_idx" ON "autopay_charges" USING btree ("mandate_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_mandates_live_uq" ON "autopay_mandates" USING btree ("customer_id") WHERE status in ('created', 'active', 'paused');--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_mandates_auth_order_uq" ON "autopay_mandates" USING btree ("auth_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_mandates_token_uq" ON "autopay_mandates" USING btree ("token_id");--> statement-breakpoint
CREATE INDEX "autopay_mandates_active_idx" ON "autopay_mandates" USING btree ("status") WHERE status = 'active';