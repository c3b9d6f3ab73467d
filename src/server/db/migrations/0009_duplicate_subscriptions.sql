-- Decision 157: a second subscription paid at the same instant is recorded, cancelled and refunded, never granted.
-- Written by hand to match schema-billing.ts.
CREATE TABLE "duplicate_subscriptions" (
	"provider" text NOT NULL,
	"subscription_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"kept_subscription_id" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "duplicate_subscriptions_provider_subscription_id_pk" PRIMARY KEY("provider","subscription_id")
);
--> statement-breakpoint
ALTER TABLE "duplicate_subscriptions" ADD CONSTRAINT "duplicate_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "duplicate_subscriptions_user_idx" ON "duplicate_subscriptions" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "duplicate_subscriptions_kept_idx" ON "duplicate_subscriptions" USING btree ("provider","kept_subscription_id");
