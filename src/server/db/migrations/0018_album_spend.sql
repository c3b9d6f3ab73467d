-- Issue 31: an album download spends one mastering credit or crown per track under one idempotency key; its
-- first ledger row records what was delivered (album name, tracks with their saved ids, formats, whether the
-- continuous file was made, how many were charged). Written by hand to match schema-billing.ts. The number
-- 0017 is left to another branch.
ALTER TABLE "credit_ledger" ADD COLUMN "album" jsonb;
