#!/usr/bin/env bash
# The deep run, before closing a change to money or to the ledger (README, "Test"): what CI leaves
# out to stay under 20 minutes.
#   1. The ledger's property at 1,000 sequences on PGlite (CI runs 300 with a new seed each run),
#      and the seeded month of revenue at 1,000 charges (CI: 300).
#   2. The ledger's property at 200 sequences and every browser journey on a fresh PostgreSQL
#      database (CI runs the journeys once, on PGlite).
# LEDGER_PROPERTY_SEED replays a red part; TEST_POSTGRES_ADMIN_URL points at another server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
start=$SECONDS
admin="${TEST_POSTGRES_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

echo "== the ledger's property, 1,000 sequences on PGlite; the seeded month at 1,000 charges =="
env -u DATABASE_URL LEDGER_PROPERTY_RUNS=1000 npx vitest run tests/api/ledger-properties
env -u DATABASE_URL REVENUE_MONTH_CHARGES=1000 npx vitest run tests/api/revenue-month.test.ts
echo "== took $((SECONDS - start)) s =="

db="deep_$(date +%s)_$$"
psql "$admin" -v ON_ERROR_STOP=1 -qc "create database $db"
trap 'psql "$admin" -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true' EXIT
url="${admin%/*}/$db"
step=$SECONDS
echo "== the ledger's property, 200 sequences on PostgreSQL =="
DATABASE_URL="$url" LEDGER_PROPERTY_RUNS=200 npx vitest run tests/api/ledger-properties
echo "== took $((SECONDS - step)) s =="
step=$SECONDS
echo "== the browser journeys on PostgreSQL =="
node scripts/ensure-build.mjs
DATABASE_URL="$url" E2E_SCREENSHOTS=0 npx playwright test
echo "== took $((SECONDS - step)) s; the deep run $((SECONDS - start)) s in all =="
