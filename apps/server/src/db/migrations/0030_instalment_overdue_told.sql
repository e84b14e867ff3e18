ALTER TABLE "emis" ADD COLUMN "overdue_told_at" timestamp with time zone;--> statement-breakpoint
-- Instalments already overdue when this ships were never told as they fell due: marked told, so
-- the first run does not send the lender a flood of old events.
UPDATE "emis" SET "overdue_told_at" = now()
  WHERE "paid_paise" < "amount_paise"
    AND "due_date" < ((now() AT TIME ZONE 'UTC') + interval '5 hours 30 minutes')::date;
