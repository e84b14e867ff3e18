ALTER TABLE "products" ADD COLUMN "platform" text DEFAULT 'android' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_platform_known" CHECK ("products"."platform" in ('android', 'ios'));--> statement-breakpoint
-- The catalogue so far: Apple's phones are iPhones, every other brand's run Android.
UPDATE "products" SET "platform" = 'ios' WHERE lower("brand") = 'apple';
