-- Issue 18: a mixed track keeps how the mixdown was made (source tracks, clips, style, volume), so the
-- mastering page can render its stems again and offer versions; null for a track uploaded as one file.
ALTER TABLE "tracks" ADD COLUMN "arrangement" jsonb;
--> statement-breakpoint
-- Issue 18: which versions and formats a mastering download delivered, recorded with its one spend.
ALTER TABLE "credit_ledger" ADD COLUMN "delivered" jsonb;
