import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

/** Plain SQL on the handle's own connection(s), outside any request (the job queue's adapter). */
export interface RawSql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The connection string (PostgreSQL): the job queue opens its own small pool with it. */
  url?: string;
  raw: RawSql;
  /**
   * Runs `onPayload` for every NOTIFY on `channel` after its transaction committed, from this or any other
   * process on the same database (PostgreSQL), or from this process (PGlite, which is one process).
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnected: () => void): Promise<() => Promise<void>>;
  close: () => Promise<void>;
}

const POOL_CHECKOUT_TIMEOUT_MS = 10_000;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

type DatabaseTarget = { kind: 'pglite'; dataDir: string | undefined; pglite?: PGlite } | { kind: 'postgresql'; url: string };

/** Extensions the migrations create (patient search); a PostgreSQL server ships them in contrib. */
const pgliteExtensions = { btree_gin, pg_trgm, unaccent };

/** Every PGlite of the app and its tests is created here, so none misses an extension. */
export function createPglite(dataDir: string | undefined, options: Omit<PGliteOptions, 'extensions' | 'dataDir'> = {}) {
  return PGlite.create({ ...options, ...(dataDir ? { dataDir } : {}), extensions: pgliteExtensions });
}

/** `dataDir` undefined means an in-memory PGlite (tests restore a snapshot into one). */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgresql') {
    // A request waits at most this long for a free connection, then answers 503 instead of queueing forever.
    const pool = new pg.Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: POOL_CHECKOUT_TIMEOUT_MS });
    // An idle connection that the server drops (restart, failover) must not take the process down:
    // the pool discards it and opens a new one on the next request.
    pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
    // A connection in use by a request when the server goes away emits 'error' on the client itself;
    // unheard, Node ends the process. The request's own query fails and answers 503.
    pool.on('connect', (client) => {
      client.on('error', (error) => console.error(`database connection lost during a request: ${error.message}`));
    });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const listeners = new Set<PostgresListener>();
    return {
      db,
      kind: 'postgresql',
      url: target.url,
      raw: { executeSql: (text, values) => pool.query(text, values) },
      async listen(channel, onPayload, onReconnected) {
        const listener = new PostgresListener(target.url, channel, onPayload, onReconnected);
        listeners.add(listener);
        await listener.start();
        return async () => {
          listeners.delete(listener);
          await listener.stop();
        };
      },
      close: async () => {
        await Promise.all([...listeners].map((listener) => listener.stop()));
        await pool.end();
      },
    };
  }
  const client = target.pglite ?? (await createPglite(target.dataDir));
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    raw: {
      // pg-boss sends its multi-statement scripts without parameters; PGlite runs those with exec().
      async executeSql(text, values) {
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
    },
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return () => unsubscribe();
    },
    close: () => client.close(),
  };
}

/**
 * One dedicated connection holding LISTEN (a pooled one would lose it). When the server drops it, it
 * reconnects with back-off. PostgreSQL does not replay what was sent while it was away, so
 * `onReconnected` runs after every reconnect: the listener's owner tells its subscribers to read again.
 */
class PostgresListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | null = null;
  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onPayload: (payload: string) => void,
    private readonly onReconnected: () => void,
  ) {}

  /** The first connection: a failure here is the caller's (the app does not start without it). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined) this.onPayload(message.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.retryMs = 250;
  }

  private lost(client: pg.Client) {
    if (this.stopped || this.client !== client || this.retryTimer) return;
    this.client = null;
    void client.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().then(this.onReconnected, () => {
        if (this.client) this.lost(this.client);
      });
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** Any constant shared by every Pathwell process; `pg_advisory_lock` keys are 64-bit integers. */
const PREPARE_LOCK_KEY = 7_406_912_113;

/**
 * Runs `work` while no other process prepares the same PostgreSQL database. Two processes starting at
 * once (a rolling deploy, two replicas, the load run) would otherwise both migrate, both GRANT on the
 * job queue's schema ("tuple concurrently updated") and both seed an empty database. The lock is held
 * by its own session, so `work` may use the handle's pool freely; PGlite is one process and needs none.
 */
export async function withPrepareLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgresql' || !handle.url) return work();
  const lockHolder = new pg.Client({ connectionString: handle.url });
  await lockHolder.connect();
  try {
    await lockHolder.query('select pg_advisory_lock($1)', [PREPARE_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases the lock even if the unlock itself fails.
    await lockHolder.query('select pg_advisory_unlock($1)', [PREPARE_LOCK_KEY]).catch(() => undefined);
    await lockHolder.end().catch(() => undefined);
  }
}

interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}

export async function migrationLevel(db: Database): Promise<{ applied: number; latest: string | null }> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as Journal;
  const result = (await db.execute(
    sql`select count(*) as count, max(created_at) as created_at from drizzle.__drizzle_migrations`,
  )) as unknown as {
    rows: { count: string | number; created_at: string | number | null }[];
  };
  const row = result.rows[0];
  const applied = Number(row?.count ?? 0);
  const latestWhen = row?.created_at == null ? null : Number(row.created_at);
  const latest = journal.entries.find((entry) => entry.when === latestWhen)?.tag ?? null;
  return { applied, latest };
}
