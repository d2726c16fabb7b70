import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createPglite, openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { applyMigrations } from '../apps/server/src/db/migrate';
import { withSystemAccess } from '../apps/server/src/db/tenancy';
import { jobQueues, startJobQueue } from '../apps/server/src/jobs/job-queue';

/**
 * `npm run bench:jobs` (issue #11, decision 0029): what a durable job costs the request that enqueues
 * it, and how fast workers pick jobs up and drain a backlog. Baseline: the same transaction without the
 * enqueue, measured in the same run. On PGlite, and on PostgreSQL when DATABASE_URL names a server
 * (a scratch database is created there and dropped).
 */
const { values } = parseArgs({
  options: { transactions: { type: 'string', default: '300' }, poll: { type: 'string', default: '0.5' } },
});
const N = Number(values.transactions);
const POLL = Number(values.poll);

async function scratch(kind: 'pglite' | 'postgresql'): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    return {
      handle: await openDatabase({ kind: 'pglite', dataDir: undefined, pglite: await createPglite(undefined) }),
      drop: async () => {},
    };
  }
  const url = new URL(process.env.DATABASE_URL!);
  const name = `pathwell_bench_jobs_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgresql', url: url.toString() });
  return {
    handle,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function measure(kind: 'pglite' | 'postgresql') {
  const { handle, drop } = await scratch(kind);
  await applyMigrations(handle);
  const jobs = await startJobQueue(handle, { pollingIntervalSeconds: POLL, retryDelaySeconds: 1 });
  const transaction = (enqueue: boolean, i: number) =>
    withSystemAccess(handle.db, 'outbox-delivery', async (tx) => {
      await tx.execute(sql`select 1`);
      if (enqueue) await jobs.enqueue(tx, jobQueues.deliverMessage, { messageId: `bench-${i}` });
    });
  for (let i = 0; i < 20; i++) await transaction(i % 2 === 0, -i);
  let started = performance.now();
  for (let i = 0; i < N; i++) await transaction(false, i);
  const alone = (performance.now() - started) / N;
  started = performance.now();
  for (let i = 0; i < N; i++) await transaction(true, i);
  const withJob = (performance.now() - started) / N;

  // Drain: the N + 10 jobs just queued, timed from the moment the worker starts.
  let handled = 0;
  let drained!: () => void;
  const all = new Promise<void>((resolve) => (drained = resolve));
  let probe: (() => void) | null = null;
  const drainStart = performance.now();
  await jobs.work<{ messageId: string }>(jobQueues.deliverMessage, async (data) => {
    if (data.messageId === 'probe') probe?.();
    else if (++handled === N + 10) drained();
  });
  await all;
  const drainMs = performance.now() - drainStart;
  const pickups: number[] = [];
  for (let k = 0; k < 5; k++) {
    const heard = new Promise<void>((resolve) => (probe = resolve));
    const sent = performance.now();
    await withSystemAccess(handle.db, 'outbox-delivery', (tx) =>
      jobs.enqueue(tx, jobQueues.deliverMessage, { messageId: 'probe' }),
    );
    await heard;
    pickups.push(performance.now() - sent);
  }
  await jobs.stop();
  await handle.close();
  await drop();
  console.log(
    `${kind.padEnd(10)} transaction ${alone.toFixed(2)} ms, with enqueue ${withJob.toFixed(2)} ms (${(withJob / alone).toFixed(2)}x); ` +
      `${N + 10} jobs drained in ${(drainMs / 1000).toFixed(1)} s; pickup ${pickups.map((ms) => ms.toFixed(0)).join(', ')} ms (poll ${POLL} s)`,
  );
}

await measure('pglite');
if (process.env.DATABASE_URL) await measure('postgresql');
process.exit(0);
