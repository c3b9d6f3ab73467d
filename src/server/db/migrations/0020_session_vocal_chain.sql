-- Issue 26 (decision 306): a mixer session keeps the manual mode's amounts ("Adjust": the vocal chain's stages
-- turned down, each 0..1 as the mix arrangement stores them). Null: every stage as planned (a session from
-- before, or nothing turned down). The shape is checked by the API (shared/api/sessions.ts); written by hand
-- to match schema-tracks.ts.
ALTER TABLE "mixer_sessions" ADD COLUMN "vocal_chain" jsonb;
