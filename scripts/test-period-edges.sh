#!/usr/bin/env bash
# The test files bound to "today", "this week" or "this month" (tests/period-bound.txt: the
# dashboard's and the home's periods, residuals, statements, month-end bills, every surface of a
# month), run as if it were each of these instants (TEST_NOW: tests/setup-env.ts fakes the process's
# Date; the embedded database's now() follows it), so that a period bug shows in every CI run and not
# on one day a year (issue 72):
#   2026-12-01T10:00:00Z  a month's first day that is a Tuesday (the week began in the month before)
#   2028-02-29T23:30:00Z  a 29 February, half an hour before its month ends (a month's last instants)
# PGlite only: PostgreSQL's now() is the server's real time. PERIOD_EDGES overrides the instants.
# One instant after the other: two at once share the files' artifacts (the statements' rendered pages).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(grep -v '^\s*$' tests/period-bound.txt)
for at in ${PERIOD_EDGES:-2026-12-01T10:00:00Z 2028-02-29T23:30:00Z}; do
  echo "== the period-bound files as if it were $at =="
  env -u DATABASE_URL -u PERIOD_BOUND_AT_EDGES EXPECT_DATABASE=pglite TEST_NOW="$at" npx vitest run "${files[@]}"
done
