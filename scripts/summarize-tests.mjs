// Totals every report in the folder into one closing line: "N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const folder = process.argv[2] ?? 'test-results/reports';
let passed = 0;
let failed = 0;
for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
  let report;
  try {
    report = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
  } catch {
    failed += 1;
    continue;
  }
  if (report.kind === 'check') {
    passed += report.passed;
    failed += report.failed;
  } else if (report.stats && 'expected' in report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
  } else if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    // A file that fails to load has no failing test but must still count as a failure.
    failed += report.numFailedTests + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  }
}
console.log(`${passed} passed, ${failed} failed`);
