import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  close: () => Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseTarget =
  { kind: 'pglite'; dataDir: string | undefined; pglite?: PGlite } | { kind: 'postgresql'; url: string };

/** Extensions the migrations create (patient search); a PostgreSQL server ships them in contrib. */
export const pgliteExtensions = { btree_gin, pg_trgm, unaccent };

/** Every PGlite of the app and its tests is created here, so none misses an extension. */
export function createPglite(dataDir: string | undefined, options: Omit<PGliteOptions, 'extensions' | 'dataDir'> = {}) {
  return PGlite.create({ ...options, ...(dataDir ? { dataDir } : {}), extensions: pgliteExtensions });
}

/** `dataDir` undefined means an in-memory PGlite (tests restore a snapshot into one). */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgresql') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection that the server drops (restart, failover) must not take the process down:
    // the pool discards it and opens a new one on the next request.
    pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
    // A connection in use by a request when the server goes away emits 'error' on the client itself;
    // unheard, Node ends the process. The request's own query fails and answers 503.
    pool.on('connect', (client) => {
      client.on('error', (error) => console.error(`database connection lost during a request: ${error.message}`));
    });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return { db, kind: 'postgresql', close: () => pool.end() };
  }
  const client = target.pglite ?? (await createPglite(target.dataDir));
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return { db, kind: 'pglite', close: () => client.close() };
}

export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgresql') await migratePg(handle.db as never, { migrationsFolder });
  else await migratePglite(handle.db as never, { migrationsFolder });
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
