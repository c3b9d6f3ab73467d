-- Saved mixer sessions count toward the storage quota: each row keeps the byte size of its saved JSON.
ALTER TABLE "mixer_sessions" ADD COLUMN "size_bytes" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Rows saved before this migration: the size of their name and clips as PostgreSQL prints them (close to
-- the JSON the server measures for new saves).
UPDATE "mixer_sessions" SET "size_bytes" = octet_length("name") + octet_length("clips"::text);
--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD CONSTRAINT "mixer_sessions_size_nonneg" CHECK ("mixer_sessions"."size_bytes" >= 0);
