ALTER TABLE "signup_requests" ADD COLUMN "role" text DEFAULT 'retailer' NOT NULL;--> statement-breakpoint
ALTER TABLE "signup_requests" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "signup_requests" ADD CONSTRAINT "signup_requests_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_requests_parent_idx" ON "signup_requests" USING btree ("org_id","parent_id","status");