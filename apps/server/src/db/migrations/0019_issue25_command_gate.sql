ALTER TABLE "device_commands" ADD COLUMN "reason_category" text;--> statement-breakpoint
-- Locks made by hand before issue 25 carried a free-text reason: kept as the note of category "other".
UPDATE "device_commands" SET "reason_category" = 'other' WHERE "reason" IS NOT NULL;
