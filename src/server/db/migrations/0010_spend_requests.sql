-- Issue 29: a spend's idempotency key is bound to what it was for. Written by hand to match schema-billing.ts.
ALTER TABLE "credit_ledger" ADD COLUMN "request" jsonb;
--> statement-breakpoint
-- Spends made before this migration: their type from the reason, versions and formats from `delivered`
-- (issue 18), no track (not recorded then). A retry of such a key is then held to the same rule.
UPDATE "credit_ledger"
SET "request" = jsonb_build_object(
  'type', substring("reason" from 7),
  'trackId', null,
  'versions', "delivered"->'versions',
  'formats', "delivered"->'formats'
)
WHERE "reason" IN ('spend_mix', 'spend_mastering') AND "request" IS NULL;
