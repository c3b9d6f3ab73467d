#!/bin/sh
# Backs up the whole database of Master Your Mix: users, sessions, balances and their ledger, subscriptions,
# track rows, the mail queue, and the migrations table. The audio itself is in the bucket (versioning).
#   docs/deploy/db-backup.sh DATABASE_URL FILE
# pg_dump reads one consistent snapshot, so the app keeps serving meanwhile. The custom format is compressed
# and restored with docs/deploy/db-restore.sh. tests/production-topology.test.ts runs both scripts.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 DATABASE_URL FILE" >&2
  exit 2
fi
url=$1
file=$2
# Written beside the target and renamed at the end: a failed dump never looks like a finished one.
pg_dump --format=custom --no-owner --no-privileges --file="$file.partial" --dbname="$url"
pg_restore --list "$file.partial" >/dev/null
mv "$file.partial" "$file"
echo "backup written: $file ($(wc -c <"$file") bytes)"
