CREATE TABLE "plan_activations" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"app_type" smallint NOT NULL,
	"retailer_id" integer NOT NULL,
	"customer_id" integer,
	"product_id" integer,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text,
	"mobile" text NOT NULL,
	"imei" text,
	"code" text NOT NULL,
	"price_paise" bigint NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"status" text DEFAULT 'issued' NOT NULL,
	"redeemed_at" timestamp with time zone,
	"redeemed_device" jsonb,
	"reminder_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_products" (
	"plan_id" integer NOT NULL,
	"product_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"app_type" smallint NOT NULL,
	"price_paise" bigint NOT NULL,
	"duration_months" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_price_non_negative" CHECK ("plans"."price_paise" >= 0),
	CONSTRAINT "plans_duration_range" CHECK ("plans"."duration_months" BETWEEN 1 AND 120)
);
--> statement-breakpoint
ALTER TABLE "ledger_movements" ADD COLUMN "plan_activation_id" integer;--> statement-breakpoint
ALTER TABLE "plan_activations" ADD CONSTRAINT "plan_activations_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_activations" ADD CONSTRAINT "plan_activations_retailer_id_users_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_activations" ADD CONSTRAINT "plan_activations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_activations" ADD CONSTRAINT "plan_activations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_products" ADD CONSTRAINT "plan_products_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_products" ADD CONSTRAINT "plan_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_activations_org_code_uq" ON "plan_activations" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "plan_activations_org_retailer_idx" ON "plan_activations" USING btree ("org_id","retailer_id","created_at");--> statement-breakpoint
CREATE INDEX "plan_activations_customer_idx" ON "plan_activations" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_products_pk" ON "plan_products" USING btree ("plan_id","product_id");--> statement-breakpoint
CREATE INDEX "plans_org_app_type_idx" ON "plans" USING btree ("org_id","app_type");