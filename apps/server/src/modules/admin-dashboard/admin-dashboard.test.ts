import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDashboard } from '@pathwell/contracts/admin-dashboard';
import { activityLogs, appointments, formResponses, instances, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { clinicTodayStart, clinicWeekStart } from '@pathwell/contracts/clinic-time';

let t: TestApp;
let riverside: string;
let lakeside: string;
let admin: Awaited<ReturnType<typeof signIn>>;

/** The demo's Riverside clinic runs on Chicago time (daylight saving included). */
const RIVERSIDE_ZONE = 'America/Chicago';

async function dashboard(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminDashboard>();
}

const failSignIn = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { email, password: 'Wrong#2026x' },
    remoteAddress: nextIp(),
  });

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  admin = await signIn(t.app, 'admin@pathwell.demo');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/dashboard', () => {
  it('counts the clinic’s active users: home clinic and members, not the other clinic’s', async () => {
    // Riverside: manager, admin, doctor, staff, the approving admin (issue #15) and the parent user;
    // Lakeside: its admin and the parent user.
    expect((await dashboard(admin.headers)).activeUsers).toBe(6);
    const admin2 = await signIn(t.app, 'admin2@pathwell.demo');
    expect((await dashboard(admin2.headers)).activeUsers).toBe(2);
  });

  it('leaves out inactive and deleted users', async () => {
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.email, 'staff@pathwell.demo'));
    try {
      expect((await dashboard(admin.headers)).activeUsers).toBe(5);
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.email, 'staff@pathwell.demo'));
    }
  });

  it('counts today’s sign-ins on the clinic’s clock', async () => {
    const before = (await dashboard(admin.headers)).signInsToday;
    await signIn(t.app, 'doctor@pathwell.demo');
    await signIn(t.app, 'staff@pathwell.demo');
    await signIn(t.app, 'admin2@pathwell.demo');
    const todayStart = clinicTodayStart(new Date(), RIVERSIDE_ZONE);
    await t.db.insert(activityLogs).values([
      // Just before the clinic's midnight: yesterday's sign-in.
      {
        instanceId: riverside,
        area: 'Login Activity',
        action: 'Created',
        targetType: 'session',
        createdAt: new Date(todayStart.getTime() - 60_000),
      },
      { instanceId: riverside, area: 'Login Activity', action: 'Created', targetType: 'session', createdAt: todayStart },
    ]);
    expect((await dashboard(admin.headers)).signInsToday).toBe(before + 3);
  });

  it('counts failed sign-ins since Sunday, not password-change failures or other clinics', async () => {
    const before = (await dashboard(admin.headers)).failedSignInsThisWeek;
    await failSignIn('doctor@pathwell.demo');
    await failSignIn('admin2@pathwell.demo');
    const weekStart = clinicWeekStart(new Date(), RIVERSIDE_ZONE);
    await t.db.insert(activityLogs).values([
      {
        instanceId: riverside,
        area: 'Login Activity',
        action: 'Failed',
        targetType: 'session',
        createdAt: new Date(weekStart.getTime() - 60_000),
      },
      { instanceId: riverside, area: 'Login Activity', action: 'Failed', targetType: 'two-factor code', createdAt: weekStart },
      { instanceId: riverside, area: 'Login Activity', action: 'Failed', targetType: 'password', createdAt: new Date() },
    ]);
    expect((await dashboard(admin.headers)).failedSignInsThisWeek).toBe(before + 2);
  });

  it('counts the clinic’s patients, today’s appointments and forms completed this week, and nothing of another clinic', async () => {
    const before = await dashboard(admin.headers);
    const livePatients = await t.db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.instanceId, riverside), isNull(patients.deletedAt)));
    expect(before.patients).toBe(livePatients.length);

    const [patient] = livePatients;
    const [foreignPatient] = await t.db
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.instanceId, lakeside))
      .limit(1);
    const todayNoon = new Date(clinicTodayStart(new Date(), RIVERSIDE_ZONE).getTime() + 12 * 3_600_000);
    await t.db.insert(appointments).values([
      { instanceId: riverside, patientId: patient!.id, startsAt: todayNoon },
      { instanceId: riverside, patientId: patient!.id, startsAt: new Date(todayNoon.getTime() + 86_400_000) },
      { instanceId: lakeside, patientId: foreignPatient!.id, startsAt: todayNoon },
    ]);
    const response = (instanceId: string, patientId: string, submittedAt: Date) => ({
      instanceId,
      patientId,
      formCode: 11,
      version: 'PHQ-9',
      language: 'en' as const,
      answers: {},
      idempotencyKey: crypto.randomUUID(),
      submittedAt,
    });
    const weekStart = clinicWeekStart(new Date(), RIVERSIDE_ZONE);
    await t.db
      .insert(formResponses)
      .values([
        response(riverside, patient!.id, weekStart),
        response(riverside, patient!.id, new Date(weekStart.getTime() - 60_000)),
        response(lakeside, foreignPatient!.id, new Date()),
      ]);

    const after = await dashboard(admin.headers);
    expect(after.appointmentsToday).toBe(before.appointmentsToday! + 1);
    expect(after.formsCompletedThisWeek).toBe(before.formsCompletedThisWeek! + 1);
    expect(after.patients).toBe(before.patients);
  });

  it('lists the ten newest entries of the clinic’s log, newest first', async () => {
    for (let i = 0; i < 3; i++) await signIn(t.app, 'admin@pathwell.demo');
    await t.db
      .insert(activityLogs)
      .values({ instanceId: lakeside, area: 'Admin Configuration', action: 'Created', description: 'Lakeside only' });
    const { latestActivity } = await dashboard(admin.headers);
    expect(latestActivity).toHaveLength(10);
    const times = latestActivity.map((row) => Date.parse(row.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(latestActivity.some((row) => row.description === 'Lakeside only')).toBe(false);
    const riversideIds = new Set(
      (await t.db.select().from(activityLogs).where(eq(activityLogs.instanceId, riverside))).map((row) => row.id),
    );
    expect(latestActivity.every((row) => riversideIds.has(row.id))).toBe(true);
  });

  it('a System Manager sees the clinic they act for', async () => {
    const manager = await signIn(t.app, 'manager@pathwell.demo');
    const forLakeside = await dashboard({ ...manager.headers, clinicid: lakeside });
    expect(forLakeside.activeUsers).toBe(2);
    expect(forLakeside.latestActivity[0]?.description).toBe('Lakeside only');
  });

  it.each(['doctor@pathwell.demo', 'staff@pathwell.demo'])('%s gets 403', async (email) => {
    const who = await signIn(t.app, email);
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: who.headers });
    expect(response.statusCode).toBe(403);
  });

  it('a parent user’s all-clinics view is refused with 400; without a session it is 401', async () => {
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard',
      headers: { ...parent.headers, clinicid: 'all' },
    });
    expect(all.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/dashboard' })).statusCode).toBe(401);
  });
});
