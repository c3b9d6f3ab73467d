#!/bin/sh
# Restores a backup made by docs/deploy/db-backup.sh into a NEW, empty database (create it first, e.g.
# `createdb -O mix mix_restored`); it refuses a database that already holds tables, so it can never
# overwrite live data. Then run `node dist/server/migrate.js` and start the app with DATABASE_URL pointing
# at the restored database (with the same TOTP_ENCRYPTION_KEYS as before: two-factor secrets need them).
#   docs/deploy/db-restore.sh FILE DATABASE_URL
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 FILE DATABASE_URL" >&2
  exit 2
fi
file=$1
url=$2
tables=$(psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$url" --command \
  "select count(*) from pg_tables where schemaname not in ('pg_catalog', 'information_schema')")
if [ "$tables" != 0 ]; then
  echo "refusing to restore: the target database already holds $tables tables (restore into a new one)" >&2
  exit 1
fi
# One transaction: a restore that fails half-way leaves the database empty, not half-filled.
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$url" "$file"
echo "restored $file"
