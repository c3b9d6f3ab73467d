-- Reserved for the tracks module: its tables, written by hand to match schema-tracks.ts.
SELECT 1;
