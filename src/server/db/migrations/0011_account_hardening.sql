-- Issue 29 (decisions 170-173): per-inbox mail limits, sessions you can see and end, a change of address.
-- Written by hand to match schema.ts and schema-mail.ts.
CREATE TABLE "mail_address_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"inbox_hash" text NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_address_sends_inbox_idx" ON "mail_address_sends" USING btree ("inbox_hash","kind","sent_at");
--> statement-breakpoint
CREATE INDEX "mail_address_sends_sent_idx" ON "mail_address_sends" USING btree ("sent_at");
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_public_id_unique" UNIQUE("public_id");
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Sessions from before this migration were last seen, as far as anyone knows, when they began.
UPDATE "sessions" SET "last_seen_at" = "created_at";
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "address" text;
--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD COLUMN "purpose" text DEFAULT 'confirm' NOT NULL;
--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_purpose_valid" CHECK ("email_verification_tokens"."purpose" in ('confirm', 'change'));
