import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleCode } from '@pathwell/contracts/roles';
import type { ClinicDashboard, PatientDashboard, PatientNote } from '@pathwell/contracts/patient-dashboard';
import {
  activityLogs,
  appointments,
  instances,
  instanceSettings,
  managedItems,
  patientNotes,
  patientPhoneNumbers,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { clinicIsoDate, clinicTodayStart, clinicWeekStart } from '@pathwell/contracts/clinic-time';
import { ageOn } from './patient-dashboard.service';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Far from UTC, so that a day window computed in UTC would visibly be wrong. */
// Far from the server's UTC, so a wrong 'today' shows: Tokyo (UTC+9, no daylight saving).
const RIVERSIDE_ZONE = 'Asia/Tokyo';

let t: TestApp;
let riverside: string;
let lakeside: string;
/** A doctor of Riverside created by this file, so that counts only see this file's rows whatever the demo seed holds. */
let ownDoctorId: string;
let demoDoctorId: string;
const who = ['admin', 'doctor', 'staff', 'admin2', 'manager'] as const;
type Who = (typeof who)[number] | 'ownDoctor';
const tokens = {} as Record<Who, Record<string, string>>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: Who | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: as ? tokens[as] : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

async function addPatient(values: Partial<typeof patients.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Test',
      lastName: 'Patient',
      dateOfBirth: '1980-01-01',
      doctorId: ownDoctorId,
      ...values,
    })
    .returning();
  return row!;
}

async function addAppointment(patientId: string, values: Partial<typeof appointments.$inferInsert> & { startsAt: Date }) {
  const [row] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, doctorId: ownDoctorId, ...values })
    .returning();
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  await t.db
    .insert(instanceSettings)
    .values({ instanceId: riverside, configurationId: 'timeZoneId', configurationValue: RIVERSIDE_ZONE })
    .onConflictDoUpdate({
      target: [instanceSettings.instanceId, instanceSettings.configurationId],
      set: { configurationValue: RIVERSIDE_ZONE },
    });
  const [demoDoctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  demoDoctorId = demoDoctor!.id;
  const [own] = await t.db
    .insert(users)
    .values({
      instanceId: riverside,
      email: 'dashboard.doctor@pathwell.demo',
      firstName: 'Dana',
      lastName: 'Ortiz',
      role: RoleCode.Doctor,
      passwordHash: demoDoctor!.passwordHash,
      status: 'active',
    })
    .returning();
  ownDoctorId = own!.id;
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
  tokens.ownDoctor = (await signIn(t.app, 'dashboard.doctor@pathwell.demo')).headers;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/patients/{id}/dashboard', () => {
  let patientId: string;
  const now = Date.now();

  beforeAll(async () => {
    const [gender] = await t.db
      .insert(managedItems)
      .values({ instanceId: riverside, listType: 'customfield:gender', name: 'Female (dashboard test)' })
      .returning();
    const [room] = await t.db
      .insert(managedItems)
      .values({ instanceId: riverside, listType: 'rooms', name: 'Room 3 (dashboard test)' })
      .returning();
    const [type] = await t.db
      .insert(managedItems)
      .values({ instanceId: riverside, listType: 'customfield:appointmenttype', name: 'Follow-up (dashboard test)' })
      .returning();
    const patient = await addPatient({
      firstName: 'María',
      middleName: 'José',
      lastName: 'Núñez',
      dateOfBirth: '1975-06-15',
      email: 'maria.nunez@example.com',
      streetAddress1: '12 Oak St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      genderId: gender!.id,
      enableEmail: true,
      enableText: false,
      preferredLanguage: 'es',
    });
    patientId = patient.id;
    await t.db.insert(patientPhoneNumbers).values([
      { instanceId: riverside, patientId, phoneType: 1, number: '(217) 555-0101', digits: '2175550101' },
      { instanceId: riverside, patientId, phoneType: 7, number: '(217) 555-0199', digits: '2175550199', isPrimary: true },
    ]);
    const day = (days: number) => new Date(now + days * DAY_MS);
    await addAppointment(patientId, { startsAt: day(-90), status: 3, painScore: 8, completedAt: day(-90) });
    await addAppointment(patientId, { startsAt: day(-60), status: 3, painScore: 6, completedAt: day(-60) });
    await addAppointment(patientId, { startsAt: day(-45), status: 4 });
    await addAppointment(patientId, {
      startsAt: day(-30),
      status: 3,
      painScore: 3,
      roomId: room!.id,
      appointmentTypeId: type!.id,
    });
    // A completed visit without a score leaves no point on the trend.
    await addAppointment(patientId, { startsAt: day(-10), status: 3 });
    await addAppointment(patientId, {
      startsAt: day(14),
      status: 2,
      roomId: room!.id,
      appointmentTypeId: type!.id,
      reason: 'follow_up',
    });
    await addAppointment(patientId, { startsAt: day(-5), status: 3, painScore: 1, deletedAt: new Date() });
    await t.db.insert(patientNotes).values([
      { instanceId: riverside, patientId, authorUserId: demoDoctorId, body: 'First note', createdAt: new Date(now - 2 * DAY_MS) },
      { instanceId: riverside, patientId, authorUserId: ownDoctorId, body: 'Second note', createdAt: new Date(now - DAY_MS) },
    ]);
  });

  it('answers demographics with phones and opt-ins, the timeline newest first, the pain trend oldest first and notes', async () => {
    const response = await call('GET', `/api/patients/${patientId}/dashboard`, 'admin');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<PatientDashboard>();
    const today = clinicIsoDate(new Date(), RIVERSIDE_ZONE);
    expect(body.demographics).toMatchObject({
      firstName: 'María',
      middleName: 'José',
      lastName: 'Núñez',
      dateOfBirth: '1975-06-15',
      age: ageOn('1975-06-15', today),
      genderName: 'Female (dashboard test)',
      email: 'maria.nunez@example.com',
      city: 'Springfield',
      zip: '62701',
      enableEmail: true,
      enableText: false,
      preferredLanguage: 'es',
      doctor: { id: ownDoctorId, name: 'Dana Ortiz' },
      status: 'active',
      archived: false,
    });
    expect(body.demographics.phones.map((phone) => [phone.phoneType, phone.number, phone.isPrimary])).toEqual([
      [7, '(217) 555-0199', true],
      [1, '(217) 555-0101', false],
    ]);
    expect(body.appointments.map((row) => row.status)).toEqual([2, 3, 3, 4, 3, 3]);
    expect(body.appointmentsTotal).toBe(6);
    expect(body.appointments[0]).toMatchObject({
      roomName: 'Room 3 (dashboard test)',
      typeName: 'Follow-up (dashboard test)',
      reason: 'follow_up',
      doctor: { id: ownDoctorId, name: 'Dana Ortiz' },
    });
    expect(body.painTrend.map((point) => point.painScore)).toEqual([8, 6, 3]);
    // Questionnaire results come from GET /api/patients/{id}/formresponses (the questionnaire panel).
    expect(body).not.toHaveProperty('questionnaires');
    expect(body.notes.map((note) => note.body)).toEqual(['Second note', 'First note']);
    expect(body.notes.every((note) => note.canEdit)).toBe(true);
  });

  it('writes a Viewed entry for the patient in the Patient Dashboard area, naming no personal data', async () => {
    const before = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Dashboard')));
    expect((await call('GET', `/api/patients/${patientId}/dashboard`, 'staff')).statusCode).toBe(200);
    const after = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, patientId), eq(activityLogs.area, 'Patient Dashboard')));
    expect(after).toHaveLength(before.length + 1);
    const entry = after.find((row) => !before.some((old) => old.id === row.id))!;
    expect(entry).toMatchObject({
      action: 'Viewed',
      targetType: 'patient',
      actorEmail: 'staff@pathwell.demo',
      instanceId: riverside,
    });
    expect(entry.description).not.toMatch(/María|Núñez/);
  });

  it('a Doctor sees their own patient, and gets 404 for a colleague’s patient', async () => {
    expect((await call('GET', `/api/patients/${patientId}/dashboard`, 'ownDoctor')).statusCode).toBe(200);
    const other = await call('GET', `/api/patients/${patientId}/dashboard`, 'doctor');
    expect(other.statusCode).toBe(404);
  });

  it('a user of the other clinic gets 404 and no Viewed entry is written', async () => {
    const before = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, patientId));
    const response = await call('GET', `/api/patients/${patientId}/dashboard`, 'admin2');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Núñez');
    const after = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, patientId));
    expect(after).toHaveLength(before.length);
  });

  it('a deleted patient answers 404', async () => {
    const gone = await addPatient({ deletedAt: new Date() });
    expect((await call('GET', `/api/patients/${gone.id}/dashboard`, 'admin')).statusCode).toBe(404);
  });

  it('refuses an id that is not a UUID with 400 and field errors, and answers 401 without a session', async () => {
    const bad = await call('GET', '/api/patients/not-an-id/dashboard', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ id: 'idInvalid' });
    expect((await call('GET', `/api/patients/${patientId}/dashboard`, null)).statusCode).toBe(401);
  });
});

describe('patient notes', () => {
  let patientId: string;
  const base = () => `/api/patients/${patientId}/notes`;

  beforeAll(async () => {
    patientId = (await addPatient({ firstName: 'Noah', lastName: 'Reed' })).id;
  });

  it('staff add notes; they list newest first with their author, and the log records the change', async () => {
    const first = await call('POST', base(), 'staff', { body: '  Prefers morning visits  ' });
    expect(first.statusCode, first.body).toBe(201);
    const note = first.json<PatientNote>();
    expect(note).toMatchObject({ body: 'Prefers morning visits', canEdit: true });
    expect(note.author?.name).toBeTruthy();
    await call('POST', base(), 'admin', { body: 'Insurance card on file' });
    const list = await call('GET', base(), 'staff');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: PatientNote[] }>().data.map((row) => [row.body, row.canEdit])).toEqual([
      ['Insurance card on file', false],
      ['Prefers morning visits', true],
    ]);
    const [log] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, note.id), eq(activityLogs.action, 'Created')));
    expect(log).toMatchObject({ area: 'Patient Profile', targetType: 'patient note' });
    expect(log!.description).not.toContain('morning');
  });

  it('refuses an empty or overlong note with field errors', async () => {
    const empty = await call('POST', base(), 'staff', { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ body: 'required' });
    const long = await call('POST', base(), 'staff', { body: 'x'.repeat(5001) });
    expect(long.json().fields).toEqual({ body: 'tooLong' });
  });

  it('the author changes their note; another user gets 403; an Admin may change or delete anyone’s', async () => {
    const note = (await call('POST', base(), 'staff', { body: 'Call back Tuesday' })).json<PatientNote>();
    const byAuthor = await call('PUT', `${base()}/${note.id}`, 'staff', { body: 'Call back Wednesday' });
    expect(byAuthor.statusCode).toBe(200);
    expect(byAuthor.json()).toMatchObject({ body: 'Call back Wednesday' });

    const byDoctor = await call('PUT', `${base()}/${note.id}`, 'ownDoctor', { body: 'Changed by someone else' });
    expect(byDoctor.statusCode).toBe(403);
    expect((await call('DELETE', `${base()}/${note.id}`, 'ownDoctor')).statusCode).toBe(403);

    const byAdmin = await call('PUT', `${base()}/${note.id}`, 'admin', { body: 'Call back Thursday' });
    expect(byAdmin.statusCode).toBe(200);
    const removed = await call('DELETE', `${base()}/${note.id}`, 'admin');
    expect(removed.statusCode).toBe(204);
    expect(await t.db.select().from(patientNotes).where(eq(patientNotes.id, note.id))).toHaveLength(0);
    const actions = await t.db
      .select({ action: activityLogs.action })
      .from(activityLogs)
      .where(eq(activityLogs.targetId, note.id));
    expect(actions.map((row) => row.action).sort()).toEqual(['Created', 'Deleted', 'Updated', 'Updated']);
  });

  it('the other clinic gets 404 for the notes, a Doctor gets 404 for a colleague’s patient, an unknown note is 404', async () => {
    const note = (await call('POST', base(), 'staff', { body: 'Kept' })).json<PatientNote>();
    expect((await call('GET', base(), 'admin2')).statusCode).toBe(404);
    expect((await call('POST', base(), 'admin2', { body: 'Sneaky' })).statusCode).toBe(404);
    expect((await call('PUT', `${base()}/${note.id}`, 'admin2', { body: 'Sneaky' })).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/${note.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', base(), 'doctor')).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/${crypto.randomUUID()}`, 'admin')).statusCode).toBe(404);
    const [still] = await t.db.select().from(patientNotes).where(eq(patientNotes.id, note.id));
    expect(still?.body).toBe('Kept');
  });
});

describe('GET /api/patients/dashboard', () => {
  const now = new Date();
  const todayStart = clinicTodayStart(now, RIVERSIDE_ZONE);
  const todayEnd = new Date(todayStart.getTime() + DAY_MS);
  const weekStart = clinicWeekStart(now, RIVERSIDE_ZONE);
  const minute = 60_000;
  let ids: Record<string, string>;

  beforeAll(async () => {
    const ana = await addPatient({ firstName: 'Ana', lastName: 'Lopez', dateOfBirth: '1990-02-03' });
    const ben = await addPatient({ firstName: 'Ben', lastName: 'Okafor' });
    await addPatient({ firstName: 'Archived', lastName: 'Patient', archivedAt: new Date() });
    await addPatient({ firstName: 'Inactive', lastName: 'Patient', status: 'inactive' });
    await addPatient({ firstName: 'Deleted', lastName: 'Patient', deletedAt: new Date() });
    await addPatient({ firstName: 'Other', lastName: 'Doctor', doctorId: demoDoctorId });
    const at = (time: number) => new Date(time);
    const rows = {
      clinicMidnight: await addAppointment(ana.id, {
        startsAt: todayStart,
        status: 3,
        completedAt: at(todayStart.getTime() + 30 * minute),
      }),
      lastMinuteToday: await addAppointment(ben.id, { startsAt: at(todayEnd.getTime() - minute), status: 2 }),
      yesterdayLate: await addAppointment(ben.id, { startsAt: at(todayStart.getTime() - minute), status: 3 }),
      tomorrowFirst: await addAppointment(ana.id, { startsAt: todayEnd, status: 2 }),
      beyondWindow: await addAppointment(ana.id, { startsAt: at(todayEnd.getTime() + 7 * DAY_MS), status: 2 }),
      checkingIn: await addAppointment(ben.id, { startsAt: at(todayStart.getTime() + HOUR_MS), status: 1, checkedInAt: now }),
      noShowThisWeek: await addAppointment(ben.id, { startsAt: weekStart, status: 4 }),
      noShowLastWeek: await addAppointment(ben.id, { startsAt: at(weekStart.getTime() - minute), status: 4 }),
    };
    await addAppointment(ana.id, { startsAt: at(todayStart.getTime() + 2 * HOUR_MS), status: 2, doctorId: demoDoctorId });
    ids = Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, row.id]));
  });

  const dashboard = async (as: Who, query = '') => {
    const response = await call('GET', `/api/patients/dashboard${query}`, as);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ClinicDashboard>();
  };

  it('takes today, the next seven days and this week from the clinic’s clock, not UTC', async () => {
    const body = await dashboard('ownDoctor');
    // On a Sunday the week starts today, so this week's no-show is also today's.
    const sunday = weekStart.getTime() === todayStart.getTime();
    const expectedToday = [ids.clinicMidnight, ids.checkingIn, ids.lastMinuteToday, ...(sunday ? [ids.noShowThisWeek] : [])];
    expect(body.today.map((row) => row.id).sort()).toEqual(expectedToday.sort());
    expect(body.today.at(-1)?.id).toBe(ids.lastMinuteToday);
    expect(body.upcoming.map((row) => row.id)).toEqual([ids.tomorrowFirst]);
    expect(body.checkingIn.map((row) => row.id)).toEqual([ids.checkingIn]);
    expect(body.recentCompletions[0]?.id).toBe(ids.clinicMidnight);
    expect(body.recentCompletions.map((row) => row.id)).toContain(ids.yesterdayLate);
    expect(body.counts).toMatchObject({
      appointmentsToday: expectedToday.length,
      checkedInNow: 1,
      noShowsThisWeek: 1,
      upcoming: 1,
    });
    expect(body.today.find((row) => row.id === ids.clinicMidnight)?.patient).toMatchObject({
      name: 'Ana Lopez',
      dateOfBirth: '1990-02-03',
    });
  });

  it('counts active patients only: not archived, not inactive, not deleted', async () => {
    const body = await dashboard('admin', `?doctorId=${ownDoctorId}`);
    const expected = await t.db.select().from(patients).where(eq(patients.doctorId, ownDoctorId));
    const active = expected.filter((row) => row.status === 'active' && !row.archivedAt && !row.deletedAt && !row.accountClosedAt);
    expect(body.counts.activePatients).toBe(active.length);
    expect(expected.length - active.length).toBeGreaterThanOrEqual(3);
  });

  it('a Doctor always sees their own day, whatever doctorId they send', async () => {
    const own = await dashboard('ownDoctor');
    const asked = await dashboard('ownDoctor', `?doctorId=${demoDoctorId}`);
    expect(asked.counts).toEqual(own.counts);
    expect(asked.today.every((row) => row.doctor?.id === ownDoctorId)).toBe(true);
  });

  it('other roles narrow to one doctor with doctorId or see every doctor', async () => {
    const narrowed = await dashboard('staff', `?doctorId=${ownDoctorId}`);
    expect(narrowed.today.every((row) => row.doctor?.id === ownDoctorId)).toBe(true);
    const everyone = await dashboard('staff');
    expect(everyone.counts.appointmentsToday).toBeGreaterThanOrEqual(narrowed.counts.appointmentsToday + 1);
    expect(everyone.today.some((row) => row.doctor?.id === demoDoctorId)).toBe(true);
  });

  it('shows nothing of Riverside to a Lakeside user, even with a Riverside doctor id', async () => {
    const body = await dashboard('admin2', `?doctorId=${ownDoctorId}`);
    expect(body.counts).toEqual({ activePatients: 0, appointmentsToday: 0, checkedInNow: 0, noShowsThisWeek: 0, upcoming: 0 });
    expect([...body.today, ...body.upcoming, ...body.checkingIn, ...body.recentCompletions]).toEqual([]);
    const managerOnLakeside = await t.app.inject({
      method: 'GET',
      url: '/api/patients/dashboard',
      headers: { ...tokens.manager, clinicid: lakeside },
    });
    expect(managerOnLakeside.statusCode).toBe(200);
    const lakesideRows = managerOnLakeside.json<ClinicDashboard>();
    const shownIds = [
      ...lakesideRows.today,
      ...lakesideRows.upcoming,
      ...lakesideRows.checkingIn,
      ...lakesideRows.recentCompletions,
    ].map((row) => row.patient.id);
    const riversideIds = new Set(
      (await t.db.select({ id: patients.id }).from(patients).where(eq(patients.instanceId, riverside))).map((row) => row.id),
    );
    expect(shownIds.filter((id) => riversideIds.has(id))).toEqual([]);
  });

  it('writes a Viewed entry in the Patient Dashboard area', async () => {
    await dashboard('staff', `?doctorId=${ownDoctorId}`);
    const [entry] = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.targetType, 'patients dashboard'),
          eq(activityLogs.targetId, ownDoctorId),
          eq(activityLogs.actorEmail, 'staff@pathwell.demo'),
        ),
      );
    expect(entry).toMatchObject({ area: 'Patient Dashboard', action: 'Viewed' });
  });

  it('refuses a doctorId that is not an id with 400 and field errors; 401 without a session', async () => {
    const bad = await call('GET', '/api/patients/dashboard?doctorId=nope', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ doctorId: 'idInvalid' });
    expect((await call('GET', '/api/patients/dashboard', null)).statusCode).toBe(401);
  });
});
