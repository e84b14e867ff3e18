ALTER TABLE "devices" ADD COLUMN "reported_seq" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "connection_id" text;