import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { applyMigrations } from '../apps/server/src/db/migrate';
import { DEMO_PASSWORD, seedDemo } from '../apps/server/src/db/seed/demo';
import { withSystemAccess } from '../apps/server/src/db/tenancy';
import { verifyActivityChain } from '../apps/server/src/modules/audit/audit.service';

/**
 * `npm run bench:load` (issue #9 §3, bench/README.md): a mixed clinic workload against TWO server
 * processes on one PostgreSQL database, with crashes. Staff sign in, list, search, open dashboards,
 * schedule and check in; patients open questionnaire links, verify, save drafts and submit with an
 * idempotency key, retrying with the same key when a request fails. At the end every acknowledged
 * submission is looked up in the database: it must be there exactly once. Timings are reported,
 * never asserted; the checks are correctness only.
 */
const { values: args } = parseArgs({
  options: {
    vus: { type: 'string' },
    duration: { type: 'string' },
    /** CI: 20 virtual users for 20 s, one kill -9 of a server process, no database stop. */
    ci: { type: 'boolean', default: false },
    /** Also stop PostgreSQL with `pg_ctlcluster … stop -m immediate` mid-run (not in --ci). */
    'stop-database': { type: 'boolean' },
    keep: { type: 'boolean', default: false },
    'admin-url': { type: 'string' },
  },
});
const CI = args.ci;
const VUS = Number(args.vus ?? (CI ? 20 : 200));
const DURATION_S = Number(args.duration ?? (CI ? 20 : 600));
const STOP_DATABASE = args['stop-database'] ?? !CI;
const ADMIN_URL =
  args['admin-url'] ?? process.env.CI_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_CLUSTER = process.env.PG_CLUSTER ?? '15 main';
const repoRoot = path.resolve(import.meta.dirname, '..');

const dbUrl = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...parts: unknown[]) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------ server processes

interface ServerProcess {
  port: number;
  child: ChildProcess | null;
  /** [start, end) in ms since the run began when this process was down on purpose. */
  downWindows: [number, number][];
}

function startServer(server: ServerProcess, databaseName: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl(databaseName),
      PORT: String(server.port),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      // Both processes must share the secret (sessions and stored secrets are valid on either).
      APP_SECRET: 'load-test-secret-shared-by-every-process-0123456789',
      LOG_LEVEL: 'error',
      WEB_DIST: '/nonexistent',
      // Each virtual patient comes from its own address (X-Forwarded-For), as phones do.
      TRUST_PROXY: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server.child = child;
}

async function waitHealthy(port: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`server on port ${port} did not become healthy`);
}

// ------------------------------------------------------------------ recording

interface CallStats {
  latencies: number[];
  statuses: Map<string, number>;
}
const calls = new Map<string, CallStats>();
let runStart = 0;
const outageWindows: [number, number][] = [];
const unexpected5xx: string[] = [];

function record(name: string, status: number | 'network', ms: number, startedAt: number) {
  // A failure is judged by when it was seen: a request in flight when its process died fails then.
  const at = startedAt + ms;
  let stats = calls.get(name);
  if (!stats) calls.set(name, (stats = { latencies: [], statuses: new Map() }));
  stats.latencies.push(ms);
  const key = String(status);
  stats.statuses.set(key, (stats.statuses.get(key) ?? 0) + 1);
  const failed = status === 'network' || status >= 500;
  // A failure while a process or the database is down on purpose (plus 5 s to reconnect) is expected.
  const inOutage = outageWindows.some(([from, to]) => at >= from - 500 && at <= to + 5_000);
  if (failed && !inOutage) unexpected5xx.push(`${name} ${key} at ${(at / 1000).toFixed(1)} s`);
}

let ports: number[] = [];
let nextPort = 0;

async function request(
  name: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; ip?: string } = {},
): Promise<{ status: number; body: unknown } | null> {
  const port = ports[nextPort++ % ports.length]!;
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const started = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    record(name, response.status, performance.now() - started, started - runStart);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: response.status, body };
  } catch {
    record(name, 'network', performance.now() - started, started - runStart);
    return null;
  }
}

// ------------------------------------------------------------------ the workload

interface DemoPatient {
  id: string;
  lastName: string;
  dateOfBirth: string;
}
const acknowledged: { key: string; id: string }[] = [];
let deadline = 0;
const running = () => Date.now() < deadline;
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const SEARCH_TERMS = ['mar', 'gonz', 'lee', 'jose', 'smith', 'pena', 'ann', 'rod'];
const PHQ9 = { q1: 1, q2: 2, q3: 0, q4: 1, q5: 2, q6: 0, q7: 1, q8: 0, q9: 0, q10: 1 };

async function signIn(email: string, ip: string): Promise<string | null> {
  for (let attempt = 0; attempt < 20 && running(); attempt++) {
    const answer = await request('POST /api/users/authenticate', 'POST', '/api/users/authenticate', {
      body: { email, password: DEMO_PASSWORD },
      ip,
    });
    if (answer?.status === 200) return (answer.body as { token: string }).token;
    await sleep(500 * (attempt + 1));
  }
  return null;
}

async function staffUser(vu: number, patients: DemoPatient[], doctorId: string) {
  const ip = `10.50.${Math.floor(vu / 250)}.${vu % 250}`;
  const token = await signIn(vu % 3 === 0 ? 'admin@pathwell.demo' : 'staff@pathwell.demo', ip);
  if (!token) return;
  let iteration = 0;
  while (running()) {
    iteration++;
    await request('POST /api/patients/filtered', 'POST', '/api/patients/filtered', { token, body: {}, ip });
    await request('GET /api/patients/search', 'GET', `/api/patients/search?searchParam=${pick(SEARCH_TERMS)}`, { token, ip });
    await request('GET /api/patients/{id}/dashboard', 'GET', `/api/patients/${pick(patients).id}/dashboard`, { token, ip });
    // Slots unique per user and iteration: no two bookings of the doctor overlap, so no 409.
    const startsAt = new Date(Date.UTC(2031, 0, 1) + (vu * 10_000 + iteration) * 31 * 60_000).toISOString();
    const booked = await request('POST /api/patientappointments/schedule', 'POST', '/api/patientappointments/schedule', {
      token,
      ip,
      body: { patientId: pick(patients).id, doctorId, startsAt, durationMinutes: 30 },
    });
    if (booked?.status === 201) {
      const { id } = booked.body as { id: string };
      await request('POST /api/patientappointments/checkin', 'POST', '/api/patientappointments/checkin', {
        token,
        ip,
        body: { id },
      });
    }
  }
}

async function patientUser(vu: number, patients: DemoPatient[], staffToken: () => Promise<string | null>) {
  const ip = `10.60.${Math.floor(vu / 250)}.${vu % 250}`;
  while (running()) {
    const patient = pick(patients);
    const token = await staffToken();
    if (!token) return;
    const created = await request('POST /api/patient-links', 'POST', '/api/patient-links', {
      token,
      ip,
      body: { patientId: patient.id, formCode: 11 },
    });
    if (created?.status !== 201) {
      await sleep(200);
      continue;
    }
    const link = (created.body as { token: string }).token;
    await request('GET /api/patient-links/{token}/status', 'GET', `/api/patient-links/${link}/status`, { ip });
    const verified = await request('POST /api/patient-links/{token}/verify', 'POST', `/api/patient-links/${link}/verify`, {
      ip,
      body: { lastName: patient.lastName, dateOfBirth: mdy(patient.dateOfBirth) },
    });
    if (verified?.status !== 200) continue;
    const access = (verified.body as { accessToken: string }).accessToken;
    await request('PUT /api/patient-links/{token}/draft', 'PUT', `/api/patient-links/${link}/draft`, {
      token: access,
      ip,
      body: { answers: { q1: 1, q2: 2 }, position: 2, language: 'en' },
    });
    // The phone keeps its idempotency key and retries until it hears an answer (bounded).
    const key = randomUUID();
    for (let attempt = 0; attempt < 30; attempt++) {
      const answer = await request('POST /api/patient-links/{token}/submit', 'POST', `/api/patient-links/${link}/submit`, {
        token: access,
        ip,
        body: { idempotencyKey: key, language: 'en', answers: PHQ9 },
      });
      if (answer && answer.status < 300) {
        acknowledged.push({ key, id: (answer.body as { id: string }).id });
        break;
      }
      if (answer && answer.status < 500) break;
      await sleep(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
}

// ------------------------------------------------------------------ cross-process checks

/**
 * Clients that go away mid-request (issue #24 §0): a closed tab, a phone losing signal, a proxy giving
 * up. Each call is aborted after 5–80 ms, wherever it has got to. They are counted, never timed.
 */
let droppedRequests = 0;
async function droppingUser(vu: number) {
  const ip = `10.60.${Math.floor(vu / 250)}.${vu % 250}`;
  const token = await signIn('staff@pathwell.demo', ip);
  const calls: [string, unknown, boolean][] = [
    ['/api/patients/exporttocsv', {}, true],
    ['/api/patients/filtered', { pageNumber: 0, pageSize: 15 }, true],
    ['/api/users/authenticate', { email: 'nobody@pathwell.demo', password: 'Wrong#2026' }, false],
  ];
  while (running()) {
    const [url, body, signedIn] = pick(calls);
    const port = ports[nextPort++ % ports.length]!;
    try {
      const response = await fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': ip,
          ...(signedIn && token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5 + Math.floor(Math.random() * 75)),
      });
      await response.text();
    } catch {
      // The abort is the point.
    }
    droppedRequests++;
    await sleep(10);
  }
}

/** After the run: no connection of the database is left idle in a transaction, and health answers at once. */
async function connectionChecks(databaseName: string): Promise<{ name: string; ok: boolean; detail: string }[]> {
  const check = new pg.Client({ connectionString: dbUrl(databaseName) });
  await check.connect();
  let idle = -1;
  for (let attempt = 0; attempt < 20; attempt++) {
    const { rows } = await check.query<{ count: number }>(
      `select count(*)::int as count from pg_stat_activity where datname = $1 and state like 'idle in transaction%'`,
      [databaseName],
    );
    idle = rows[0]!.count;
    if (idle === 0) break;
    await sleep(500);
  }
  await check.end();
  const health = await Promise.all(
    ports.map(async (port) => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1500) });
        return response.status;
      } catch {
        return 'no answer';
      }
    }),
  );
  return [
    {
      name: `no session is left idle in a transaction after ${droppedRequests} requests dropped mid-way`,
      ok: idle === 0 && droppedRequests > 0,
      detail: `${idle} idle in transaction`,
    },
    {
      name: 'health answers 200 on every process at the end',
      ok: health.every((status) => status === 200),
      detail: health.join(', '),
    },
  ];
}

async function throttleChecks(): Promise<{ name: string; ok: boolean; detail: string }[]> {
  const results: { name: string; ok: boolean; detail: string }[] = [];
  // Five wrong passwords for one account, alternating between the two processes, lock it on both.
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const answer = await request('throttle check', 'POST', '/api/users/authenticate', {
      body: { email: 'admin2@pathwell.demo', password: 'Wrong#Password1' },
      ip: `10.70.0.${attempt + 1}`,
    });
    statuses.push(answer?.status ?? 0);
  }
  results.push({
    name: 'sign-in lockout counts across both processes (5 failures, alternating ports, then 429)',
    ok: statuses.slice(0, 5).every((status) => status === 401) && statuses[5] === 429,
    detail: statuses.join(','),
  });
  return results;
}

async function linkLockoutCheck(staffToken: string, patient: DemoPatient) {
  const created = await request('lockout check', 'POST', '/api/patient-links', {
    token: staffToken,
    body: { patientId: patient.id, formCode: 11 },
  });
  const link = (created?.body as { token: string }).token;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const answer = await request('lockout check', 'POST', `/api/patient-links/${link}/verify`, {
      body: { lastName: 'Nobody', dateOfBirth: '01/01/1901' },
      ip: `10.71.0.${attempt + 1}`,
    });
    statuses.push(answer?.status ?? 0);
  }
  const right = await request('lockout check', 'POST', `/api/patient-links/${link}/verify`, {
    body: { lastName: patient.lastName, dateOfBirth: mdy(patient.dateOfBirth) },
    ip: '10.71.0.99',
  });
  return {
    name: 'link lockout counts across both processes (the 5th wrong answer, on alternating ports, locks it, even for the right one)',
    // Decision 0059: every fifth failure locks the link for 15 minutes (429 identityLocked).
    ok: statuses.slice(0, 4).every((status) => status === 400) && statuses[4] === 429 && right?.status === 429,
    detail: `${statuses.join(',')} then ${right?.status}`,
  };
}

// ------------------------------------------------------------------ main

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const databaseName = `pathwell_load_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const servers: ServerProcess[] = [];
  const checks: { name: string; ok: boolean; detail: string }[] = [];
  try {
    const handle = await openDatabase({ kind: 'postgresql', url: dbUrl(databaseName) });
    await applyMigrations(handle);
    await withSystemAccess(handle.db, 'bootstrap', seedDemo);
    const { rows: patientRows } = (await handle.db.execute(
      `select p.id, p.last_name as "lastName", p.date_of_birth::text as "dateOfBirth"
         from patients p join instances i on i.id = p.instance_id
        where i.name like 'Riverside%' and p.deleted_at is null and p.archived_at is null limit 120` as never,
    )) as unknown as { rows: DemoPatient[] };
    const { rows: doctorRows } = (await handle.db.execute(
      `select id from users where email = 'doctor@pathwell.demo'` as never,
    )) as unknown as { rows: { id: string }[] };
    await handle.close();
    const patients = patientRows;
    const doctorId = doctorRows[0]!.id;
    log(`database ${databaseName} ready with ${patients.length} Riverside patients`);

    for (let index = 0; index < 2; index++) servers.push({ port: await freePort(), child: null, downWindows: [] });
    ports = servers.map((server) => server.port);
    for (const server of servers) startServer(server, databaseName);
    await Promise.all(servers.map((server) => waitHealthy(server.port)));
    log(`two server processes on ports ${ports.join(' and ')}; ${VUS} virtual users for ${DURATION_S} s`);

    runStart = performance.now();
    deadline = Date.now() + DURATION_S * 1000;
    let sharedStaffToken: string | null = null;
    const staffToken = async () => (sharedStaffToken ??= await signIn('staff@pathwell.demo', '10.80.0.1'));

    const users = Array.from({ length: VUS }, (_, vu) =>
      vu % 2 === 0 ? staffUser(vu, patients, doctorId) : patientUser(vu, patients, staffToken),
    );
    // One client in ten beside them drops its requests mid-way.
    const droppers = Array.from({ length: Math.max(2, Math.floor(VUS / 10)) }, (_, index) => droppingUser(VUS + index));

    // Crashes: kill -9 one process a third of the way in and start it again; stop the database at two thirds.
    const crashes = (async () => {
      await sleep((DURATION_S * 1000) / 3);
      const victim = servers[0]!;
      const from = performance.now() - runStart;
      outageWindows.push([from, Number.POSITIVE_INFINITY]);
      victim.child?.kill('SIGKILL');
      log(`kill -9 of the process on port ${victim.port}`);
      await sleep(1_000);
      startServer(victim, databaseName);
      await waitHealthy(victim.port);
      outageWindows[outageWindows.length - 1]![1] = performance.now() - runStart;
      log(`process on port ${victim.port} back after ${((performance.now() - runStart - from) / 1000).toFixed(1)} s`);
      if (!STOP_DATABASE) return;
      await sleep(Math.max(0, deadline - Date.now() - (DURATION_S * 1000) / 3));
      const dbFrom = performance.now() - runStart;
      outageWindows.push([dbFrom, Number.POSITIVE_INFINITY]);
      log('stopping PostgreSQL (immediate)');
      spawnSync('pg_ctlcluster', [...PG_CLUSTER.split(' '), 'stop', '-m', 'immediate']);
      await sleep(3_000);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', ...PG_CLUSTER.split(' '), 'start']);
      await Promise.all(servers.map((server) => waitHealthy(server.port, 120_000)));
      outageWindows[outageWindows.length - 1]![1] = performance.now() - runStart;
      log(`PostgreSQL back; both processes answer again after ${((performance.now() - runStart - dbFrom) / 1000).toFixed(1)} s`);
    })();

    const crashOutcome = await Promise.all([
      ...users,
      ...droppers,
      crashes.then(
        () => null,
        (error: unknown) => String(error),
      ),
    ]);
    const crashFailure = crashOutcome.at(-1);
    checks.push({
      name: 'every server process answers again after each crash without being restarted by hand',
      ok: !crashFailure,
      detail: crashFailure ?? 'yes',
    });
    const elapsedS = (performance.now() - runStart) / 1000;

    checks.push(...(await connectionChecks(databaseName)));
    checks.push(...(await throttleChecks()));
    const token = await staffToken();
    if (token) checks.push(await linkLockoutCheck(token, patients[0]!));

    // Reconcile: every acknowledged submission is stored exactly once.
    const check = new pg.Client({ connectionString: dbUrl(databaseName) });
    await check.connect();
    const keys = acknowledged.map((entry) => entry.key);
    const { rows: stored } = await check.query<{ key: string; count: number }>(
      `select idempotency_key as key, count(*)::int as count from form_responses where idempotency_key = any($1) group by 1`,
      [keys],
    );
    const countByKey = new Map(stored.map((row) => [row.key, row.count]));
    const lost = keys.filter((key) => !countByKey.has(key)).length;
    const doubled = stored.filter((row) => row.count > 1).length;
    await check.end();
    checks.push({
      name: 'every acknowledged submission is stored',
      ok: lost === 0 && keys.length > 0,
      detail: `${keys.length} acknowledged, ${lost} lost`,
    });
    checks.push({ name: 'no acknowledged submission is stored twice', ok: doubled === 0, detail: `${doubled} doubled` });
    checks.push({
      name: 'no 5xx or dropped connection outside the deliberate outages',
      ok: unexpected5xx.length === 0,
      detail: unexpected5xx.length ? unexpected5xx.slice(0, 10).join('; ') : 'none',
    });

    const chainHandle = await openDatabase({ kind: 'postgresql', url: dbUrl(databaseName) });
    const chain = await withSystemAccess(chainHandle.db, 'audit-verify', verifyActivityChain);
    await chainHandle.close();
    checks.push({
      name: 'the activity-log chain still verifies',
      ok: chain.firstBreak === null,
      detail: `${chain.checked} rows checked${chain.firstBreak ? `, broken at ${chain.firstBreak.id}` : ''}`,
    });

    // ---- report
    let total = 0;
    const table = [...calls.entries()]
      .filter(([name]) => !name.endsWith('check'))
      .map(([name, stats]) => {
        const sorted = [...stats.latencies].sort((a, b) => a - b);
        total += sorted.length;
        return {
          call: name,
          count: sorted.length,
          perSecond: +(sorted.length / elapsedS).toFixed(1),
          p50: +percentile(sorted, 50).toFixed(1),
          p95: +percentile(sorted, 95).toFixed(1),
          p99: +percentile(sorted, 99).toFixed(1),
          statuses: Object.fromEntries(stats.statuses),
        };
      });
    console.log(
      `\n${total} requests in ${elapsedS.toFixed(0)} s (${(total / elapsedS).toFixed(1)}/s), ${VUS} virtual users, 2 processes`,
    );
    console.table(table.map(({ statuses, ...row }) => ({ ...row, statuses: JSON.stringify(statuses) })));
    console.log(
      'outages (s):',
      outageWindows.map(([from, to]) => `${(from / 1000).toFixed(1)}–${(to / 1000).toFixed(1)}`).join(', ') || 'none',
    );
    for (const item of checks) console.log(`${item.ok ? 'PASS' : 'FAIL'}  ${item.name}: ${item.detail}`);

    const report = {
      vus: VUS,
      durationS: DURATION_S,
      elapsedS,
      stopDatabase: STOP_DATABASE,
      totalRequests: total,
      outageWindows,
      calls: table,
      checks,
    };
    mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
    writeFileSync(path.join(repoRoot, `bench/results/load-${CI ? 'ci' : 'full'}.json`), JSON.stringify(report, null, 2));
    if (CI) {
      const reports = path.join(repoRoot, 'test-results/reports');
      mkdirSync(reports, { recursive: true });
      const passed = checks.filter((item) => item.ok).length;
      writeFileSync(
        path.join(reports, 'load-ci.json'),
        JSON.stringify({ kind: 'check', passed, failed: checks.length - passed }),
      );
    }
    const failed = checks.filter((item) => !item.ok).length;
    console.log(`${checks.length - failed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    for (const server of servers) server.child?.kill('SIGTERM');
    await sleep(1_000);
    if (!args.keep) {
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${databaseName} with (force)`).catch(() => undefined);
      await dropper.end();
    }
  }
}

await main();
