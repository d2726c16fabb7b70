#!/usr/bin/env bash
# The whole test suite: lint, typecheck, unit/API/component tests (PGlite; again on PostgreSQL when
# DATABASE_URL is set), then the Playwright journeys against the built app. Every step runs even when
# an earlier one failed; the last line totals all of them as "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
reports="$PWD/test-results/reports"  # absolute: Playwright resolves its JSON path from the config folder
if [ "${KEEP_REPORTS:-}" != "1" ]; then rm -rf "$reports"; fi
mkdir -p "$reports"
status=0

check() { # name, command...: a lint or typecheck step counts as one test
  local name=$1; shift
  echo "== $name [$(date +%T)]"
  if "$@"; then echo '{"kind":"check","passed":1,"failed":0}' > "$reports/check-$name.json"
  else echo '{"kind":"check","passed":0,"failed":1}' > "$reports/check-$name.json"; status=1; fi
}

# Lint and typecheck are each one process on one core: on CI's two cores they run side by side
# (about two minutes saved), and lint's output follows typecheck's so the two do not interleave.
lint_log=$(mktemp)
( check lint npm run lint --silent ) > "$lint_log" 2>&1 &
lint_pid=$!
check typecheck npm run typecheck --silent
wait "$lint_pid"
cat "$lint_log"
[ -f "$reports/check-lint.json" ] && grep -q '"failed":1' "$reports/check-lint.json" && status=1
rm -f "$lint_log"

echo "== unit, API and component tests (PGlite) [$(date +%T)]"
env -u DATABASE_URL npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest-pglite.json" || status=1

if [ -n "${DATABASE_URL:-}" ]; then
  echo "== API tests on PostgreSQL [$(date +%T)]"
  npx vitest run --project server --reporter=default --reporter=json --outputFile.json="$reports/vitest-postgresql.json" || status=1
fi

echo "== end-to-end journeys (Chromium) [$(date +%T)]"
npm run build --silent && PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test -c e2e/playwright.config.ts --reporter=list,json || status=1
# No report means the journeys were not counted: that is a failure, never a silent zero.
[ -f "$reports/playwright.json" ] || { echo '{"kind":"check","passed":0,"failed":1}' > "$reports/check-playwright-report.json"; status=1; }

echo "== done [$(date +%T)]"
node scripts/summarize-tests.mjs "$reports"
exit $status
