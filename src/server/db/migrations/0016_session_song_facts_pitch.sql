-- Issue 27: a mixer session keeps the beat's song facts (tempo, grid, key, as analysed or edited) and the
-- vocal's pitch-correction settings, so a restored session neither re-analyses the beat over the user's edits
-- nor loses the correction. Null: none saved (a session from before, or no beat yet). The shapes are checked
-- by the API (shared/api/sessions.ts); written by hand to match schema-tracks.ts.
ALTER TABLE "mixer_sessions" ADD COLUMN "song_facts" jsonb;
--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD COLUMN "pitch" jsonb;
