import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientDashboard } from '@pathwell/contracts/patient-dashboard';
import { RoleCode } from '@pathwell/contracts/roles';
import { activityLogs, instances, patients, userInstances, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

/** Staff record the patient's choice of optional messages (decision 0065, addendum of 2026-11-28). */
let t: TestApp;
let riverside: string;
let lakeside: string;
type Who = 'admin' | 'staff' | 'doctor' | 'otherDoctor' | 'manager' | 'lakesideAdmin';
const as = {} as Record<Who, { headers: Record<string, string>; id: string }>;
let patientId: string;
let lakesidePatientId: string;

const put = (who: Who, id: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/patients/${id}/optionalmessages`,
    headers: as[who].headers,
    payload: payload as object,
    remoteAddress: nextIp(),
  });
const stored = async (id: string) =>
  (
    await t.db.select({ email: patients.outreachEmail, text: patients.outreachText }).from(patients).where(eq(patients.id, id))
  )[0]!;

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = clinics.find((row) => row.name === 'Lakeside Pain Center')!.id;
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'doctor.optional@pathwell.demo',
      firstName: 'Rosa',
      lastName: 'Quintana',
      role: RoleCode.Doctor,
      instanceId: riverside,
      passwordHash: doctor!.passwordHash,
      status: 'active',
    })
    .returning();
  await t.db.insert(userInstances).values({ userId: otherDoctor!.id, instanceId: riverside });
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Elena', lastName: 'Barros', dateOfBirth: '1966-08-21', doctorId: doctor!.id })
    .returning({ id: patients.id });
  patientId = patient!.id;
  const [other] = await t.db
    .insert(patients)
    .values({ instanceId: lakeside, firstName: 'Tomás', lastName: 'Ibarra', dateOfBirth: '1959-01-30' })
    .returning({ id: patients.id });
  lakesidePatientId = other!.id;
  for (const [who, email] of [
    ['admin', 'admin@pathwell.demo'],
    ['staff', 'staff@pathwell.demo'],
    ['doctor', 'doctor@pathwell.demo'],
    ['otherDoctor', 'doctor.optional@pathwell.demo'],
    ['manager', 'manager@pathwell.demo'],
    ['lakesideAdmin', 'admin2@pathwell.demo'],
  ] as const) {
    as[who] = await signIn(t.app, email);
  }
});
afterAll(async () => {
  await t?.close();
});

describe("recording the patient's choice of optional messages", () => {
  it('Staff record a withdrawal: stored, answered, logged with who and what changed, and shown on the dashboard', async () => {
    expect(await stored(patientId)).toEqual({ email: true, text: true });
    const response = await put('staff', patientId, { email: false, text: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ email: false, text: true });
    expect(await stored(patientId)).toEqual({ email: false, text: true });
    const [entry] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Profile')))
      .orderBy(desc(activityLogs.createdAt));
    expect(entry).toMatchObject({
      action: 'Updated',
      actorUserId: as.staff.id,
      description: "Recorded the patient's choice of optional messages: email declined (was agreed), text agreed (was agreed)",
    });
    const dashboard = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${patientId}/dashboard`,
      headers: as.admin.headers,
      remoteAddress: nextIp(),
    });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json<PatientDashboard>().demographics.optionalMessages).toEqual({ email: false, text: true });
  });

  it("the patient's Doctor and an Admin may record it too", async () => {
    expect((await put('doctor', patientId, { email: true, text: false })).statusCode).toBe(200);
    expect((await put('admin', patientId, { email: true, text: true })).statusCode).toBe(200);
    expect(await stored(patientId)).toEqual({ email: true, text: true });
  });

  it('400 with the field errors when a choice is missing or not yes/no', async () => {
    const response = await put('staff', patientId, { email: 'yes' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toMatchObject({ email: 'required', text: 'required' });
    expect(await stored(patientId)).toEqual({ email: true, text: true });
  });

  it("404 for another clinic's patient and for another Doctor's patient; nothing changes", async () => {
    expect((await put('staff', lakesidePatientId, { email: false, text: false })).statusCode).toBe(404);
    expect((await put('lakesideAdmin', patientId, { email: false, text: false })).statusCode).toBe(404);
    expect((await put('otherDoctor', patientId, { email: false, text: false })).statusCode).toBe(404);
    expect(await stored(patientId)).toEqual({ email: true, text: true });
    expect(await stored(lakesidePatientId)).toEqual({ email: true, text: true });
  });

  it('403 for a System Manager (platform operators do not speak for patients)', async () => {
    const response = await put('manager', patientId, { email: false, text: false });
    expect(response.statusCode, response.body).toBe(403);
    expect(await stored(patientId)).toEqual({ email: true, text: true });
  });
});
