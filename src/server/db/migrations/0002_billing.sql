-- Reserved for the billing module: its tables, written by hand to match schema-billing.ts.
SELECT 1;
