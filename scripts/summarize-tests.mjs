// Totals every report in the folder into one closing line: "N passed, N failed".
// The names of failed tests are printed just above it, so the tail of a CI log says what broke, and so are
// the journeys that passed only on a retry: a retry hides a defect, it does not excuse one (issue #26 §5).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const folder = process.argv[2] ?? 'test-results/reports';
let passed = 0;
let failed = 0;
const failures = [];
const retried = [];

function playwrightFailures(suite, report) {
  for (const spec of suite.specs ?? []) {
    const where = `${report}: ${spec.file ?? suite.file ?? ''} › ${spec.title}`;
    if (!spec.ok) failures.push(where);
    else if ((spec.tests ?? []).some((test) => (test.results ?? []).length > 1)) retried.push(where);
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, report);
}

for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
  let report;
  try {
    report = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
  } catch {
    failed += 1;
    failures.push(`${file}: unreadable report`);
    continue;
  }
  if (report.kind === 'check') {
    passed += report.passed;
    failed += report.failed;
    if (report.failed) failures.push(`${file}: check failed`);
  } else if (report.stats && 'expected' in report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    for (const suite of report.suites ?? []) playwrightFailures(suite, file);
  } else if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    // A file that fails to load has no failing test but must still count as a failure.
    failed += report.numFailedTests + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
    for (const result of report.testResults ?? []) {
      const where = path.relative(process.cwd(), result.name ?? '');
      const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) failures.push(`${file}: ${where} › ${test.fullName ?? test.title}`);
      if (!failedTests.length && result.status === 'failed') failures.push(`${file}: ${where} (did not load)`);
    }
  }
}
for (const journey of retried) console.log(`RETRIED (passed only on a retry: fix it) ${journey}`);
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed`);
