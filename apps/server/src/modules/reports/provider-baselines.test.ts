import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { RoleCode } from '@pathwell/contracts/roles';
import type { ProviderBaselines } from '@pathwell/contracts/reports-referrals';
import { appointments, formResponses, instances, patientLinks, patients, userInstances, users } from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/**
 * March 2015 in America/Chicago (long before the demo data); doctor A is the demo Doctor, B a colleague.
 *
 *   Q1 (A): first visit Mar 5 completed, pain 7, intake completed Mar 4 (before); Apr 10 completed, pain 4
 *       (36 days later: the follow-up). ODI 60 on Mar 5, 40 on Apr 10; PHQ-9 12 on Mar 5, no follow-up.
 *   Q2 (A): first visit Mar 12 completed, pain 5, intake completed an hour after the start (not before);
 *       Mar 20 completed, pain 3 (8 days: no follow-up), no intake link. ODI 30 Mar 12, 20 Mar 20 (no follow-up).
 *   Q3 (A): not new (first visit Jan 10); Mar 15 no-show with intake completed before.
 *   Q4 (B): first visit Mar 8 upcoming, intake link never completed; NDI 20.
 *   Q5 (B): first visit Mar 25 checking in, no pain score.
 *   Never counted: Q6 (deleted patient, A, Mar 10), Q7 (Lakeside, Mar 10).
 */
let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorA: string;
let doctorB: string;
const headers: Record<string, Record<string, string>> = {};

const march2015 = { dateFilter: 9, startDate: '03/01/2015', endDate: '03/31/2015' };
const url = '/api/patientappointments/providerappointmentreport';
const post = (as: string | null, payload: object = march2015) =>
  t.app.inject({ method: 'POST', url, headers: as ? headers[as] : {}, payload, remoteAddress: nextIp() });
const report = async (as: string, payload: object = {}) => {
  const response = await post(as, { ...march2015, ...payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ProviderBaselines>();
};

async function patient(doctorId: string) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Baseline', lastName: 'Patient', dateOfBirth: '1970-01-01', doctorId })
    .returning({ id: patients.id });
  return row!.id;
}

async function visit(patientId: string, doctorId: string, startsAt: string, status: number, painScore: number | null = null) {
  const [row] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, doctorId, startsAt: new Date(startsAt), status, painScore })
    .returning({ id: appointments.id });
  return row!.id;
}

async function intake(patientId: string, appointmentId: string, completedAt: string | null) {
  await t.db.insert(patientLinks).values({
    instanceId: riverside,
    patientId,
    appointmentId,
    kind: 'intake',
    intakePlan: { steps: [4], formCodes: [], historyFormIds: [], checkInFormIds: [] },
    tokenHash: randomUUID(),
    expiresAt: new Date('2015-06-01T00:00:00Z'),
    completedAt: completedAt ? new Date(completedAt) : null,
  });
}

async function response(patientId: string, formCode: number, headlineScore: number, submittedAt: string) {
  await t.db.insert(formResponses).values({
    instanceId: riverside,
    patientId,
    formCode,
    version: 'test',
    language: 'en',
    answers: {},
    headlineScore,
    idempotencyKey: randomUUID(),
    submittedAt: new Date(submittedAt),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
  await setInstanceSetting(t.db, riverside, 'enableProviderAppointmentDashboard', 'true');
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) headers[who] = (await signIn(t.app, `${who}@pathwell.demo`)).headers;
  doctorA = (await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo')))[0]!.id;
  const [colleague] = await t.db
    .insert(users)
    .values({
      email: 'baselines.colleague@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: riverside,
    })
    .returning({ id: users.id });
  doctorB = colleague!.id;
  await t.db.insert(userInstances).values({ userId: doctorB, instanceId: riverside });

  const q1 = await patient(doctorA);
  const q1First = await visit(q1, doctorA, '2015-03-05T15:00:00Z', AppointmentStatus.Completed, 7);
  await intake(q1, q1First, '2015-03-04T20:00:00Z');
  await visit(q1, doctorA, '2015-04-10T15:00:00Z', AppointmentStatus.Completed, 4);
  await response(q1, 2, 60, '2015-03-05T15:30:00Z');
  await response(q1, 2, 40, '2015-04-10T15:30:00Z');
  await response(q1, 11, 12, '2015-03-05T15:40:00Z');

  const q2 = await patient(doctorA);
  const q2First = await visit(q2, doctorA, '2015-03-12T15:00:00Z', AppointmentStatus.Completed, 5);
  await intake(q2, q2First, '2015-03-12T16:00:00Z');
  await visit(q2, doctorA, '2015-03-20T15:00:00Z', AppointmentStatus.Completed, 3);
  await response(q2, 2, 30, '2015-03-12T15:30:00Z');
  await response(q2, 2, 20, '2015-03-20T15:30:00Z');

  const q3 = await patient(doctorA);
  await visit(q3, doctorA, '2015-01-10T15:00:00Z', AppointmentStatus.Completed, 6);
  const q3NoShow = await visit(q3, doctorA, '2015-03-15T15:00:00Z', AppointmentStatus.No_Show);
  await intake(q3, q3NoShow, '2015-03-14T15:00:00Z');

  const q4 = await patient(doctorB);
  const q4First = await visit(q4, doctorB, '2015-03-08T15:00:00Z', AppointmentStatus.Upcoming);
  await intake(q4, q4First, null);
  await response(q4, 3, 20, '2015-03-08T15:30:00Z');

  const q5 = await patient(doctorB);
  await visit(q5, doctorB, '2015-03-25T15:00:00Z', AppointmentStatus.Checking_In);

  const q6 = await patient(doctorA);
  await visit(q6, doctorA, '2015-03-10T15:00:00Z', AppointmentStatus.Completed, 9);
  await t.db.update(patients).set({ deletedAt: new Date() }).where(eq(patients.id, q6));

  const [lakesidePatient] = await t.db
    .insert(patients)
    .values({ instanceId: lakeside, firstName: 'Other', lastName: 'Clinic', dateOfBirth: '1970-01-01' })
    .returning({ id: patients.id });
  await t.db.insert(appointments).values({
    instanceId: lakeside,
    patientId: lakesidePatient!.id,
    doctorId: doctorA,
    startsAt: new Date('2015-03-10T15:00:00Z'),
    status: AppointmentStatus.Completed,
    painScore: 2,
  });
});
afterAll(async () => {
  await t?.close();
});

const providerA = {
  // New: Q1, Q2. Baseline pain (7 + 5) / 2 = 6; follow-up only Q1's 4 (Q2's second visit is 8 days on).
  newPatients: 2,
  baselinePain: { mean: 6, count: 2 },
  followUpPain: { mean: 4, count: 1 },
  forms: [
    // ODI: baselines 60 and 30 → 45; follow-up only Q1's 40. PHQ-9: Q1's 12, no follow-up.
    { formCode: 2, baseline: { mean: 45, count: 2 }, followUp: { mean: 40, count: 1 } },
    { formCode: 11, baseline: { mean: 12, count: 1 }, followUp: { mean: null, count: 0 } },
  ],
  // Mar 5, Mar 12, Mar 20 completed; Mar 15 no-show (Q1's Apr 10 is outside the window).
  appointments: { upcoming: 0, checkingIn: 0, completed: 3, noShow: 1, total: 4 },
  // Intake completed before the start: Mar 5 and Mar 15 → 2 of 4.
  intake: { due: 4, completedBefore: 2, rate: 0.5 },
};

const providerB = {
  newPatients: 2,
  baselinePain: { mean: null, count: 0 },
  followUpPain: { mean: null, count: 0 },
  forms: [{ formCode: 3, baseline: { mean: 20, count: 1 }, followUp: { mean: null, count: 0 } }],
  appointments: { upcoming: 1, checkingIn: 1, completed: 0, noShow: 0, total: 2 },
  intake: { due: 2, completedBefore: 0, rate: 0 },
};

describe('POST /api/patientappointments/providerappointmentreport', () => {
  it("gives each provider their new patients' baselines and follow-ups, appointments and intake completion", async () => {
    const answer = await report('admin');
    expect(answer.rows).toHaveLength(2);
    expect(answer.rows.find((row) => row.providerId === doctorA)).toMatchObject(providerA);
    expect(answer.rows.find((row) => row.providerId === doctorB)).toMatchObject({ providerName: 'Luis Peña', ...providerB });
    expect(answer.totals).toEqual({
      newPatients: 4,
      baselinePain: { mean: 6, count: 2 },
      followUpPain: { mean: 4, count: 1 },
      forms: [
        { formCode: 2, baseline: { mean: 45, count: 2 }, followUp: { mean: 40, count: 1 } },
        { formCode: 3, baseline: { mean: 20, count: 1 }, followUp: { mean: null, count: 0 } },
        { formCode: 11, baseline: { mean: 12, count: 1 }, followUp: { mean: null, count: 0 } },
      ],
      appointments: { upcoming: 1, checkingIn: 1, completed: 3, noShow: 1, total: 6 },
      // 2 of 6 appointments had the intake done before the start.
      intake: { due: 6, completedBefore: 2, rate: 0.3333 },
    });
  });

  it('narrows to the doctor an Admin picks', async () => {
    const answer = await report('admin', { doctorId: doctorB });
    expect(answer.rows.map((row) => row.providerId)).toEqual([doctorB]);
    expect(answer.totals).toMatchObject(providerB);
  });

  it('shows a Doctor only their own row, whatever doctor they name', async () => {
    const answer = await report('doctor', { doctorId: doctorB });
    expect(answer.rows.map((row) => row.providerId)).toEqual([doctorA]);
    expect(answer.totals).toMatchObject(providerA);
  });

  it('answers no rows for an empty window', async () => {
    const answer = await report('admin', { startDate: '01/01/2010', endDate: '01/31/2010' });
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toMatchObject({ newPatients: 0, intake: { due: 0, completedBefore: 0, rate: null } });
  });

  it("never counts another clinic's data", async () => {
    // Lakeside has its one March visit; with the dashboard on there, Riverside's rows never show.
    await setInstanceSetting(t.db, lakeside, 'enableProviderAppointmentDashboard', 'true');
    const answer = await report('admin2');
    expect(answer.totals).toMatchObject({ newPatients: 1, appointments: { completed: 1, total: 1 } });
    expect(answer.totals.forms).toEqual([]);
    await setInstanceSetting(t.db, lakeside, 'enableProviderAppointmentDashboard', 'false');
  });

  it('answers 403 featureOff while the clinic has the dashboard off', async () => {
    await setInstanceSetting(t.db, riverside, 'enableProviderAppointmentDashboard', 'false');
    try {
      const response = await post('admin');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ messageKey: 'featureOff' });
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableProviderAppointmentDashboard', 'true');
    }
  });

  it('rejects bad input with field errors', async () => {
    const response = await post('admin', { dateFilter: 11, doctorId: 'x'.repeat(40) });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields)).toEqual(
      expect.arrayContaining(['dateFilter', 'doctorId']),
    );
    const backwards = await post('admin', { dateFilter: 9, startDate: '03/31/2015', endDate: '03/01/2015' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ fields: { endDate: 'dateRangeInvalid' } });
  });

  it('is for the Reports roles: Staff get 403, nobody signed in 401', async () => {
    expect((await post('staff')).statusCode).toBe(403);
    expect((await post(null)).statusCode).toBe(401);
  });
});
