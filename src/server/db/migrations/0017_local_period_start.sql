-- Issue 30 (decision 250): an upgrade credits the unused part of the current Pro period, which needs the
-- period's length, so the local test provider keeps when the current period started (Stripe has
-- current_period_start on the subscription item). Rows from before: a month before the period's end, the
-- length every local period has had. Written by hand to match schema-billing.ts.
ALTER TABLE "local_subscriptions" ADD COLUMN "current_period_start" timestamp with time zone;
--> statement-breakpoint
UPDATE "local_subscriptions" SET "current_period_start" = "current_period_end" - interval '1 month';
--> statement-breakpoint
ALTER TABLE "local_subscriptions" ALTER COLUMN "current_period_start" SET NOT NULL;
