/**
 * What a hostile JSON body costs the server (issue #24 §0), measured here rather than timed in a test:
 * for a few routes that read a body, the process's CPU time per request with each hostile shape, as a
 * ratio to the same route with `{}` in the same run. The input checks (plugins/input-checks.ts) refuse
 * deep nesting before parsing, so each ratio should stay near 1; a shape that is parsed and walked
 * costs what its size costs, and no more than once.
 *
 *   npx tsx bench/hostile-bodies.ts [--runs 20]        (embedded database in a temporary folder)
 *   DATABASE_URL=postgres://… npx tsx bench/hostile-bodies.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { prepareDatabase } from '../apps/server/src/prepare';
import { DEMO_PASSWORD } from '../apps/server/src/db/seed/demo';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;

const shapes: [string, string][] = [
  ['100,000 nested arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
  ['100,000 nested objects', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
  ['a key of 200,000 characters', JSON.stringify({ ['k'.repeat(200_000)]: 'v' })],
  ['an object of 20,000 keys', JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])))],
];

const dataDir = mkdtempSync(path.join(tmpdir(), 'pathwell-bench-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' });
const database = await prepareDatabase(config);
const app = await buildApp({ config, database, logger: false });
await app.ready();

const signIn = await app.inject({
  method: 'POST',
  url: '/api/users/authenticate',
  payload: { email: 'manager@pathwell.demo', password: DEMO_PASSWORD },
});
const token = (signIn.json() as { token: string }).token;
const routes: { label: string; method: 'POST' | 'PUT'; url: string; signedIn: boolean }[] = [
  { label: 'POST /api/users/authenticate', method: 'POST', url: '/api/users/authenticate', signedIn: false },
  { label: 'POST /api/patients', method: 'POST', url: '/api/patients', signedIn: true },
  { label: 'PUT /api/appointments/{id}', method: 'PUT', url: `/api/appointments/${crypto.randomUUID()}`, signedIn: true },
];

/** Median CPU milliseconds of the process per request. */
async function cpuMs(route: (typeof routes)[number], body: string) {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    await app.inject({
      method: route.method,
      url: route.url,
      payload: body,
      headers: { 'content-type': 'application/json', ...(route.signedIn ? { authorization: `Bearer ${token}` } : {}) },
      remoteAddress: `10.77.${run % 250}.${(run * 7) % 250}`,
    });
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

console.log(`median process CPU per request over ${runs} runs; ratio to the same route with {}\n`);
for (const route of routes) {
  const baseline = await cpuMs(route, '{}');
  console.log(`${route.label}\n  {}${' '.repeat(28)}${baseline.toFixed(2).padStart(8)} ms`);
  for (const [label, body] of shapes) {
    const ms = await cpuMs(route, body);
    console.log(`  ${label.padEnd(30)}${ms.toFixed(2).padStart(8)} ms   x${(ms / Math.max(baseline, 0.01)).toFixed(1)}`);
  }
}
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
