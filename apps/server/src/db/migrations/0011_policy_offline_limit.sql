ALTER TABLE "devices" ADD COLUMN "desired_offline_lock_after_ms" bigint;--> statement-breakpoint
-- Enrolled devices take their organisation's offline limit into the policy, as a new version.
UPDATE "devices" AS d SET "desired_offline_lock_after_ms" = round((o."settings"->>'offlineLockAfterHours')::numeric * 3600000)::bigint, "policy_version" = d."policy_version" + 1, "policy_updated_at" = now() FROM "organizations" AS o WHERE o."id" = d."org_id" AND d."enrolled_at" IS NOT NULL AND o."settings"->>'offlineLockAfterHours' IS NOT NULL;
