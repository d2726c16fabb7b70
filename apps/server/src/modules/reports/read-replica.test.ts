import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { reportReader, requireSignedIn } from '../../context';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';

/**
 * Report routes read from `READ_DATABASE_URL` when it is set (decision 0043). A second connection pool
 * to the same database stands in for the replica: what matters is that the route's reads go through a
 * read-only transaction that carries the same clinic scope, and that nothing can be written through it.
 * PostgreSQL only (PGlite is one connection).
 */
const onPostgres = !!process.env.DATABASE_URL;

async function replicaRoutes(app: FastifyInstance) {
  const reading = { roles: ['Admin', 'Doctor', 'SystemManager'] as const, readReplica: true };
  app.get('/api/test/replica-read', { config: reading }, async (request) => {
    const ctx = requireSignedIn(request.ctx);
    const result = (await reportReader(ctx).execute(
      sql`select count(*)::int as patients, current_setting('transaction_read_only') as "readOnly" from patients`,
    )) as { rows: { patients: number; readOnly: string }[] };
    const [row] = result.rows;
    return { ...row, onReplica: ctx.readDb !== undefined };
  });
  app.get('/api/test/replica-write', { config: reading }, async (request) => {
    const ctx = requireSignedIn(request.ctx);
    try {
      await reportReader(ctx).execute(sql`update patients set first_name = first_name where false`);
      return { refused: false, message: '' };
    } catch (error) {
      return { refused: true, message: (error as { cause?: Error }).cause?.message ?? (error as Error).message };
    }
  });
}

describe.skipIf(!onPostgres)('reports on a read replica', () => {
  let t: TestApp;
  let primary: DatabaseHandle;
  let replica: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp({}, { routes: replicaRoutes });
    primary = await openDatabase({ kind: 'postgresql', url: t.appDatabaseUrl! });
    replica = await openDatabase({ kind: 'postgresql', url: t.appDatabaseUrl! });
    app = await buildApp({ config: t.config, database: primary, readDatabase: replica, logger: false, routes: replicaRoutes });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await replica?.close();
    await primary?.close();
    await t?.close();
  });

  it('reads through a read-only transaction scoped to the clinic, and only with a replica configured', async () => {
    const { headers } = await signIn(app, 'admin@pathwell.demo');
    const count = async (query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as { rows: { n: number }[] }).rows[0]!.n;
    const own = {
      n: await count(
        sql`select count(*)::int as n from patients p join instances i on i.id = p.instance_id where i.name like 'Riverside%'`,
      ),
    };
    const all = { n: await count(sql`select count(*)::int as n from patients`) };
    expect(own.n).toBeGreaterThan(0);
    expect(all.n).toBeGreaterThan(own.n);

    const read = await app.inject({ method: 'GET', url: '/api/test/replica-read', headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ patients: own.n, readOnly: 'on', onReplica: true });

    // The same route on an app without a replica reads the request's own transaction, same scope.
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/test/replica-read',
      headers: (await signIn(t.app, 'admin@pathwell.demo')).headers,
    });
    expect(plain.json()).toEqual({ patients: own.n, readOnly: 'off', onReplica: false });
  });

  it('refuses any write through the replica transaction', async () => {
    const { headers } = await signIn(app, 'admin@pathwell.demo');
    const write = await app.inject({ method: 'GET', url: '/api/test/replica-write', headers });
    expect(write.json()).toEqual({ refused: true, message: expect.stringMatching(/read-only transaction/) });
  });
});
