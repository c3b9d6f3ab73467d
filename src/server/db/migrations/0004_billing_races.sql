-- Billing under concurrency and crashes (issue #15, decisions 090-092). Written by hand to match schema-billing.ts.
-- Earlier races could leave a user with several entitled local subscriptions: keep the one that ends last.
UPDATE "local_subscriptions" SET "status" = 'canceled'
WHERE "status" IN ('active', 'trialing', 'past_due')
  AND "id" NOT IN (
    SELECT DISTINCT ON ("user_id") "id" FROM "local_subscriptions"
    WHERE "status" IN ('active', 'trialing', 'past_due')
    ORDER BY "user_id", "current_period_end" DESC, "created_at" DESC
  );
--> statement-breakpoint
CREATE UNIQUE INDEX "local_subscriptions_one_entitled_idx" ON "local_subscriptions" USING btree ("user_id") WHERE "status" IN ('active', 'trialing', 'past_due');
--> statement-breakpoint
CREATE TABLE "local_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"crowns" integer,
	"subscription_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "local_payments" ADD CONSTRAINT "local_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "local_payments_user_idx" ON "local_payments" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "local_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"event" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "local_outbox_pending_idx" ON "local_outbox" USING btree ("created_at") WHERE "delivered_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "billing_claims" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_claims" ADD CONSTRAINT "billing_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
