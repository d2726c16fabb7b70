import PgBoss from 'pg-boss';
import pg from 'pg';
import type { Database, DatabaseHandle, RawSql } from '../db/client';

/**
 * Durable jobs in PostgreSQL with pg-boss (decision 0029). The queue's schema is installed by the
 * owner's connection with the migrations; at run time the worker connects as `pathwell_jobs`, which
 * sees the queue and no clinic data, and a request enqueues inside its own transaction (as
 * `pathwell_app`), so a change that rolls back leaves no job behind.
 */
const JOB_SCHEMA = 'pgboss';

export const jobQueues = {
  /** Hands one stored outbound message to its provider. */
  deliverMessage: 'deliver-message',
  /** Makes and sends the intake links that are due (decision 0034); run by pg-boss's cron schedule. */
  intakeSweep: 'intake-sweep',
  /** Sends the care-pathway steps that are due, their reminders, and records what was missed (decision 0041). */
  pathwaySweep: 'pathway-sweep',
  /** Imports one encounter CSV in batches, with progress (issue #15 §1, decision 0050). */
  encounterImport: 'encounter-import',
  /** Sends the next throttled batch of each approved campaign inside daytime hours (decision 0051). */
  campaignSweep: 'campaign-sweep',
} as const;
/** Jobs one worker fetches at a time; a full batch fetches the next at once. */
const WORK_BATCH_SIZE = 20;

export type JobQueueName = (typeof jobQueues)[keyof typeof jobQueues];

/** Tries and back-off of a delivery: 1 + 5 retries, waiting about 30 s, 60 s, 120 s, 240 s, 480 s. */
const DELIVERY_RETRY = { retryLimit: 5, retryDelay: 30, retryBackoff: true } as const;

/** Creates or upgrades the queue's tables, its queues, and what the app's roles may do with them. */
export async function installJobQueue(handle: DatabaseHandle): Promise<void> {
  const boss = new PgBoss({ db: handle.raw as PgBoss.Db, schema: JOB_SCHEMA, migrate: true, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  for (const name of Object.values(jobQueues)) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, ...DELIVERY_RETRY });
  }
  await boss.stop({ graceful: false, wait: true, close: false });
  for (const statement of [
    `GRANT USAGE ON SCHEMA ${JOB_SCHEMA} TO pathwell_jobs, pathwell_app, pathwell_system`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_SCHEMA} TO pathwell_jobs`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOB_SCHEMA} TO pathwell_jobs`,
    // Enqueueing inside a request: read the queue's settings, insert the job, read back its id.
    `GRANT SELECT ON ${JOB_SCHEMA}.queue TO pathwell_app, pathwell_system`,
    `GRANT SELECT, INSERT ON ${JOB_SCHEMA}.job TO pathwell_app, pathwell_system`,
  ]) {
    await handle.raw.executeSql(statement);
  }
}

/** The statements of a drizzle transaction, for pg-boss to enqueue on (pglite and node-postgres alike). */
function onTransaction(db: Database): PgBoss.Db {
  const client = (
    db as unknown as { session?: { client?: { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> } } }
  ).session?.client;
  if (!client) throw new Error('enqueue needs a drizzle transaction or database');
  const adapter: RawSql = { executeSql: (text, values) => client.query(text, values) };
  return adapter as PgBoss.Db;
}

export interface EnqueueOptions {
  startAfter?: Date;
  /** One job per key while it waits (pg-boss singletonKey). */
  singletonKey?: string;
}

export interface JobQueue {
  /** Adds a job in the caller's transaction: it exists only if that transaction commits. */
  enqueue(db: Database, name: JobQueueName, data: object, options?: EnqueueOptions): Promise<string | null>;
  work<T extends object>(
    name: JobQueueName,
    handler: (data: T, job: { id: string; retryCount: number; retryLimit: number }) => Promise<void>,
  ): Promise<void>;
  /** Runs `name` on a cron schedule across every process (pg-boss keeps one schedule per name). */
  schedule(name: JobQueueName, cron: string): Promise<void>;
  unschedule(name: JobQueueName): Promise<void>;
  stop(): Promise<void>;
}

interface JobQueueOptions {
  /** Seconds between polls for new jobs (pg-boss's minimum is 0.5). */
  pollingIntervalSeconds?: number;
  /** First wait before a retry, doubled each time. */
  retryDelaySeconds?: number;
  /** Retries after the first try. */
  retryLimit?: number;
  /** Whether this process keeps the cron schedules (scheduled jobs are still created once per tick). */
  schedules?: boolean;
}

/** Starts the queue for this process: maintenance (expired and retried jobs) and the workers. */
export async function startJobQueue(handle: DatabaseHandle, options: JobQueueOptions = {}): Promise<JobQueue> {
  let pool: pg.Pool | null = null;
  let stopped: Promise<void> | undefined;
  let db: RawSql = handle.raw;
  if (handle.kind === 'postgresql' && handle.url) {
    pool = new pg.Pool({ connectionString: handle.url, max: 3, options: '-c role=pathwell_jobs' });
    pool.on('error', (error) => console.error(`job queue connection lost: ${error.message}`));
    const jobsPool = pool;
    db = { executeSql: (text, values) => jobsPool.query(text, values) };
  }
  const boss = new PgBoss({
    db: db as PgBoss.Db,
    schema: JOB_SCHEMA,
    migrate: false,
    schedule: options.schedules ?? false,
    supervise: true,
    maintenanceIntervalSeconds: 60,
  });
  boss.on('error', (error: Error) => console.error(`job queue: ${error.message}`));
  await boss.start();
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 1;
  return {
    async enqueue(txDb, name, data, enqueueOptions = {}) {
      return boss.send(name, data, {
        ...DELIVERY_RETRY,
        retryDelay: options.retryDelaySeconds ?? DELIVERY_RETRY.retryDelay,
        retryLimit: options.retryLimit ?? DELIVERY_RETRY.retryLimit,
        ...(enqueueOptions.startAfter ? { startAfter: enqueueOptions.startAfter } : {}),
        ...(enqueueOptions.singletonKey ? { singletonKey: enqueueOptions.singletonKey } : {}),
        db: onTransaction(txDb),
      });
    },
    async work(name, handler) {
      let workerId = '';
      workerId = await boss.work(
        name,
        { pollingIntervalSeconds, includeMetadata: true, batchSize: WORK_BATCH_SIZE },
        async (jobs) => {
          for (const job of jobs) {
            const { retryCount, retryLimit } = job as unknown as { retryCount: number; retryLimit: number };
            try {
              await handler(job.data as never, { id: job.id, retryCount, retryLimit });
            } catch (error) {
              // One job's failure is its own: it goes back for a retry (or fails) and the batch goes on.
              await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
            }
          }
          // A full batch means more may be waiting: fetch again at once instead of after the poll interval.
          if (jobs.length === WORK_BATCH_SIZE) boss.notifyWorker(workerId);
        },
      );
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {}, { tz: 'UTC' });
    },
    async unschedule(name) {
      await boss.unschedule(name);
    },
    // Stopping twice (a test stops the workers early, then closes the app) ends nothing twice.
    stop() {
      stopped ??= (async () => {
        await boss.stop({ graceful: true, wait: true, close: false, timeout: 5000 });
        await pool?.end();
      })();
      return stopped;
    },
  };
}
