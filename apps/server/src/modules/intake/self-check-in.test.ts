import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { randomBytes } from 'node:crypto';
import type { IntakeView, PatientCheckInResponse } from '@pathwell/contracts/intake';
import { sha256 } from '../../lib/secrets';
import { activityLogs, appointments, instances, patientLinks, patients } from '../../db/schema';
import { createTestApp, nextIp, type TestApp, setInstanceSetting, zoneAtHour } from '../../../test/test-app';

/** Self check-in from the QR page of a visit (decision 0034). */
let t: TestApp;
let riverside: string;
let lakeside: string;
const ids = {} as {
  patient: string;
  visit: string;
  tomorrowVisit: string;
  lockVisit: string;
  otherPatient: string;
  lakesidePatient: string;
  lakesideVisit: string;
};
const WHO = { lastName: 'Ortega', dateOfBirth: '06/15/1968' };

const state = (patientId: string, appointmentId: string) =>
  t.app.inject({ method: 'GET', url: `/api/selfcheckin/${patientId}/${appointmentId}`, remoteAddress: nextIp() });
const checkIn = (patientId: string, appointmentId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/selfcheckin/${patientId}/${appointmentId}`, payload, remoteAddress: nextIp() });

async function appointment(id: string) {
  const [row] = await t.db.select().from(appointments).where(eq(appointments.id, id));
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  const patient = async (instanceId: string, lastName: string) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-06-15', preferredLanguage: 'es' })
      .returning({ id: patients.id });
    return row!.id;
  };
  const visit = async (instanceId: string, patientId: string, hoursFromNow: number) => {
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId, patientId, reason: 'follow_up', startsAt: new Date(Date.now() + hoursFromNow * 3_600_000) })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.patient = await patient(riverside, 'Ortega');
  ids.visit = await visit(riverside, ids.patient, 1);
  ids.tomorrowVisit = await visit(riverside, ids.patient, 26);
  ids.lockVisit = await visit(riverside, ids.patient, 2);
  ids.otherPatient = await patient(riverside, 'Ortega');
  ids.lakesidePatient = await patient(lakeside, 'Ortega');
  ids.lakesideVisit = await visit(lakeside, ids.lakesidePatient, 1);
  for (const clinic of [riverside, lakeside]) await setInstanceSetting(t.db, clinic, 'enablePatientSelfCheckin', 'true');
});
beforeEach(async () => {
  // Noon at both clinics: a visit one or two hours from now is today, one 26 hours away is not.
  for (const clinic of [riverside, lakeside]) await setInstanceSetting(t.db, clinic, 'timeZoneId', zoneAtHour(12));
});
afterAll(async () => {
  await t?.close();
});

describe('self check-in from the QR page', () => {
  it("says the patient can check in today, with the clinic's name", async () => {
    const response = await state(ids.patient, ids.visit);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ clinicName: 'Riverside Spine & Pain', state: 'ready', lockedMinutes: null });
  });

  it('checks the patient in with the right last name and date of birth, once', async () => {
    const before = Date.now();
    const response = await checkIn(ids.patient, ids.visit, { lastName: ' ortega ', dateOfBirth: WHO.dateOfBirth });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ checkedIn: true, confirmationPage: false });
    const row = await appointment(ids.visit);
    expect(row.status).toBe(AppointmentStatus.Checking_In);
    expect(row.checkedInAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const checkedInAt = row.checkedInAt!.getTime();
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.visit), eq(activityLogs.area, 'Checkins')));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.actorUserId).toBeNull();
    expect(logs[0]!.description).toMatch(/self check-in QR page/);

    // Scanning again answers the same and changes nothing.
    const again = await checkIn(ids.patient, ids.visit, WHO);
    expect(again.statusCode, again.body).toBe(200);
    expect((await appointment(ids.visit)).checkedInAt!.getTime()).toBe(checkedInAt);
    expect((await state(ids.patient, ids.visit)).json().state).toBe('checkedIn');
  });

  it("continues the visit's unfinished intake on the same phone: a new address and access, the old address gone", async () => {
    const [visit] = await t.db
      .insert(appointments)
      .values({
        instanceId: riverside,
        patientId: ids.patient,
        reason: 'follow_up',
        startsAt: new Date(Date.now() + 3 * 3_600_000),
      })
      .returning({ id: appointments.id });
    const oldToken = randomBytes(32).toString('base64url');
    const [link] = await t.db
      .insert(patientLinks)
      .values({
        instanceId: riverside,
        patientId: ids.patient,
        appointmentId: visit!.id,
        kind: 'intake',
        intakePlan: { steps: [4, 5], formCodes: [], historyFormIds: [], checkInFormIds: [] },
        tokenHash: sha256(oldToken),
        expiresAt: new Date(Date.now() + 12 * 3_600_000),
      })
      .returning({ id: patientLinks.id });
    const response = await checkIn(ids.patient, visit!.id, WHO);
    expect(response.statusCode, response.body).toBe(200);
    const { continueIntake } = response.json<PatientCheckInResponse>();
    expect(continueIntake).toMatchObject({ appointmentId: visit!.id, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const opened = await t.app.inject({
      method: 'GET',
      url: `/api/intake/${continueIntake!.token}`,
      headers: { authorization: `Bearer ${continueIntake!.accessToken}` },
      remoteAddress: nextIp(),
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<IntakeView>().checkIn.checkedIn).toBe(true);
    const old = await t.app.inject({ method: 'GET', url: `/api/patient-links/${oldToken}/status`, remoteAddress: nextIp() });
    expect(old.statusCode).toBe(404);
    const [row] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link!.id));
    expect(row!.tokenHash).toBe(sha256(continueIntake!.token));

    // A finished intake is not reopened.
    await t.db.update(patientLinks).set({ completedAt: new Date() }).where(eq(patientLinks.id, link!.id));
    expect((await checkIn(ids.patient, visit!.id, WHO)).json<PatientCheckInResponse>().continueIntake).toBeUndefined();
  });

  it('shows the confirmation page when the clinic asks for it', async () => {
    await setInstanceSetting(t.db, riverside, 'checkinConfirmationPage', 'true');
    try {
      const response = await checkIn(ids.patient, ids.visit, WHO);
      expect(response.json()).toEqual({ checkedIn: true, confirmationPage: true });
    } finally {
      await setInstanceSetting(t.db, riverside, 'checkinConfirmationPage', 'false');
    }
  });

  it('takes the first surname alone of a compound last name, as a link does', async () => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Rosa', lastName: 'Fernández Peña', dateOfBirth: '1982-02-03' })
      .returning({ id: patients.id });
    const [visit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: row!.id, reason: 'follow_up', startsAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: appointments.id });
    const response = await checkIn(row!.id, visit!.id, { lastName: 'fernandez', dateOfBirth: '02/03/1982' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await appointment(visit!.id)).status).toBe(AppointmentStatus.Checking_In);
  });

  it('a visit on another day cannot be checked in', async () => {
    expect((await state(ids.patient, ids.tomorrowVisit)).json().state).toBe('notToday');
    const response = await checkIn(ids.patient, ids.tomorrowVisit, WHO);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().messageKey).toBe('checkinNotToday');
    expect((await appointment(ids.tomorrowVisit)).status).toBe(AppointmentStatus.Upcoming);
  });

  it('wrong answers are refused with the field, and the fifth locks the page even for the right answer', async () => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await checkIn(ids.patient, ids.lockVisit, { ...WHO, dateOfBirth: '06/16/1968' });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fields).toEqual({ lastName: 'identityMismatch' });
      // The same answer as a link's identity check, with the tries left before the lock.
      expect(response.json().params).toEqual({ attemptsLeft: 5 - attempt });
    }
    const fifth = await checkIn(ids.patient, ids.lockVisit, { ...WHO, lastName: 'Ortiz' });
    expect(fifth.statusCode, fifth.body).toBe(429);
    expect(fifth.json()).toMatchObject({ messageKey: 'identityLocked', params: { minutes: 15 } });
    const right = await checkIn(ids.patient, ids.lockVisit, WHO);
    expect(right.statusCode).toBe(429);
    expect(await state(ids.patient, ids.lockVisit).then((r) => r.json())).toMatchObject({ state: 'locked', lockedMinutes: 15 });
    expect((await appointment(ids.lockVisit)).status).toBe(AppointmentStatus.Upcoming);
    const failed = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.lockVisit), eq(activityLogs.action, 'Failed')));
    expect(failed).toHaveLength(5);
  });

  it('bad input is a 400 with the fields', async () => {
    const badIds = await state('not-an-id', ids.visit);
    expect(badIds.statusCode).toBe(400);
    expect(Object.keys(badIds.json().fields)).toEqual(['patientId']);
    const badBody = await checkIn(ids.patient, ids.visit, { lastName: '', dateOfBirth: '1968-06-15' });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().fields).toMatchObject({ lastName: 'required', dateOfBirth: 'dateInvalid' });
  });

  it("another patient's, an unknown or another clinic's combination is the same 404", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [patientId, appointmentId] of [
      [ids.otherPatient, ids.visit],
      [ids.patient, unknown],
      [ids.lakesidePatient, ids.visit],
      [ids.patient, ids.lakesideVisit],
    ] as const) {
      const read = await state(patientId, appointmentId);
      expect(read.statusCode, `${patientId} ${appointmentId}`).toBe(404);
      expect(read.json().messageKey).toBe('appointmentNotFound');
      const write = await checkIn(patientId, appointmentId, WHO);
      expect(write.statusCode).toBe(404);
    }
    expect((await appointment(ids.lakesideVisit)).status).toBe(AppointmentStatus.Upcoming);
  });

  it('is not there when the clinic does not offer self check-in', async () => {
    await setInstanceSetting(t.db, lakeside, 'enablePatientSelfCheckin', 'false');
    try {
      expect((await state(ids.lakesidePatient, ids.lakesideVisit)).statusCode).toBe(404);
      expect((await checkIn(ids.lakesidePatient, ids.lakesideVisit, WHO)).statusCode).toBe(404);
      expect((await appointment(ids.lakesideVisit)).status).toBe(AppointmentStatus.Upcoming);
    } finally {
      await setInstanceSetting(t.db, lakeside, 'enablePatientSelfCheckin', 'true');
    }
    // With it on, the Lakeside patient checks in at Lakeside.
    expect((await checkIn(ids.lakesidePatient, ids.lakesideVisit, WHO)).statusCode).toBe(200);
  });
});
