ALTER TABLE "sms_outbox" ADD COLUMN "template_kind" text;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "template_vars" jsonb;