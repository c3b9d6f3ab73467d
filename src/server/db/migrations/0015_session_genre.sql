-- Issue 26 (decision 189): a mixer session keeps the genre picked at the mix-style step; null follows the
-- beat's suggestion. Written by hand to match schema-tracks.ts.
ALTER TABLE "mixer_sessions" ADD COLUMN "genre" text;
--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD CONSTRAINT "mixer_sessions_genre_valid" CHECK ("mixer_sessions"."genre" is null or "mixer_sessions"."genre" in ('hiphop', 'pop', 'rnb', 'rock', 'edm', 'acoustic', 'jazz'));
