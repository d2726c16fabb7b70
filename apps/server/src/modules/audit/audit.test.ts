import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs } from '../../db/schema';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';
import { verifyActivityChain } from './audit.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const email of ['admin@pathwell.demo', 'doctor@pathwell.demo', 'admin2@pathwell.demo', 'staff@pathwell.demo']) {
    await signIn(t.app, email);
  }
  await t.app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { email: 'ghost@example.com', password: 'Wrong#1234' },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('activity log', () => {
  it('chains every row to the previous row of its clinic, numbered from 1', async () => {
    const rows = await t.db.select().from(activityLogs).orderBy(activityLogs.chainSeq);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const byClinic = new Map<string, typeof rows>();
    for (const row of rows) byClinic.set(row.instanceId ?? 'none', [...(byClinic.get(row.instanceId ?? 'none') ?? []), row]);
    expect(byClinic.size).toBeGreaterThanOrEqual(3);
    // Riverside's three sign-ins make a chain of three or more: links between rows are really checked.
    expect(Math.max(...[...byClinic.values()].map((chain) => chain.length))).toBeGreaterThanOrEqual(3);
    for (const chain of byClinic.values()) {
      chain.forEach((row, index) => {
        expect(row.chainSeq).toBe(index + 1);
        expect(row.prevHash).toBe(index === 0 ? '' : chain[index - 1]!.hash);
        expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      });
    }
    expect(await verifyActivityChain(t.db)).toEqual({ checked: rows.length, firstBreak: null });
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await expect(t.db.update(activityLogs).set({ description: 'edited' })).rejects.toThrow();
    await expect(t.db.delete(activityLogs)).rejects.toThrow();
    await expect(t.db.execute(sql`truncate activity_logs`)).rejects.toThrow();
    const [{ count }] = (await t.db.select({ count: sql<number>`count(*)::int` }).from(activityLogs)) as [{ count: number }];
    expect(count).toBeGreaterThanOrEqual(5);
  });

  it('a row edited behind the application’s back is found by the verification', async () => {
    // Tampering gets a database of its own, so no other test of this file depends on running first.
    await withOwnDatabase(async (own) => {
      for (let i = 0; i < 3; i++) await signIn(own.app, 'admin@pathwell.demo');
      const [victim] = await own.db.select().from(activityLogs).where(eq(activityLogs.chainSeq, 2)).limit(1);
      expect(victim).toMatchObject({ chainSeq: 2 });
      expect(await verifyActivityChain(own.db)).toMatchObject({ firstBreak: null });
      await own.db.execute(sql`alter table activity_logs disable trigger activity_logs_no_update_delete`);
      await own.db.execute(sql`update activity_logs set description = 'nothing happened' where id = ${victim!.id}`);
      await own.db.execute(sql`alter table activity_logs enable trigger activity_logs_no_update_delete`);
      const { firstBreak } = await verifyActivityChain(own.db);
      expect(firstBreak).toEqual({ id: victim!.id, instanceId: victim!.instanceId, chainSeq: 2, reason: 'content changed' });
    });
  });

  it('a row deleted behind the application’s back is found too', async () => {
    await withOwnDatabase(async (own) => {
      for (let i = 0; i < 3; i++) await signIn(own.app, 'admin@pathwell.demo');
      const [middle] = await own.db.select().from(activityLogs).where(eq(activityLogs.chainSeq, 2)).limit(1);
      expect(middle).toMatchObject({ chainSeq: 2 });
      await own.db.execute(sql`alter table activity_logs disable trigger activity_logs_no_update_delete`);
      await own.db.execute(sql`delete from activity_logs where id = ${middle!.id}`);
      await own.db.execute(sql`alter table activity_logs enable trigger activity_logs_no_update_delete`);
      const { firstBreak } = await verifyActivityChain(own.db);
      expect(firstBreak?.chainSeq).toBe(3);
      expect(firstBreak?.reason).toBe('row missing before this one');
    });
  });
});

async function withOwnDatabase(work: (own: TestApp) => Promise<void>) {
  const own = await createTestApp();
  try {
    await work(own);
  } finally {
    await own.close();
  }
}
