import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appointment, AppointmentPage, AppointmentStatuses, DaySchedule } from '@pathwell/contracts/appointments';
import { RoleCode } from '@pathwell/contracts/roles';
import { clinicDayStartAfter, clinicMdy, clinicTodayStart } from '@pathwell/contracts/clinic-time';
import { activityLogs, appointments, managedItems, patients, userInstances, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
const who = ['admin', 'manager', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;

const HOUR = 3_600_000;
/** The demo clinics run on Chicago time (UTC−6 in winter, UTC−5 in summer). */
const ZONE = 'America/Chicago';
const BASE = '/api/patientappointments';

const ids = {
  riverside: '',
  lakeside: '',
  doctor: '',
  otherDoctor: '',
  staff: '',
  rooms: [] as string[],
  lakesideRoom: '',
  type: '',
  bodyLocations: [] as string[],
};

async function listItems(instanceId: string, listType: string) {
  const rows = await t.db
    .select({ id: managedItems.id })
    .from(managedItems)
    .where(and(eq(managedItems.instanceId, instanceId), eq(managedItems.listType, listType)))
    .orderBy(managedItems.sortOrder);
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
  const userRows = await t.db.select({ id: users.id, email: users.email, instanceId: users.instanceId }).from(users);
  const byEmail = (email: string) => userRows.find((row) => row.email === email)!;
  ids.riverside = byEmail('admin@pathwell.demo').instanceId!;
  ids.lakeside = byEmail('admin2@pathwell.demo').instanceId!;
  ids.doctor = byEmail('doctor@pathwell.demo').id;
  ids.staff = byEmail('staff@pathwell.demo').id;
  const [other] = await t.db
    .insert(users)
    .values({
      email: 'second.doctor@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: ids.riverside,
    })
    .returning();
  ids.otherDoctor = other!.id;
  await t.db.insert(userInstances).values({ userId: other!.id, instanceId: ids.riverside });
  ids.rooms = await listItems(ids.riverside, 'rooms');
  ids.lakesideRoom = (await listItems(ids.lakeside, 'rooms'))[0]!;
  ids.type = (await listItems(ids.riverside, 'customfield:appointmenttype'))[0]!;
  ids.bodyLocations = await listItems(ids.riverside, 'bodylocations');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as], payload: payload as object | undefined, remoteAddress: nextIp() });

let patientCounter = 0;
async function newPatient(instanceId = ids.riverside, doctorId: string | null = null) {
  patientCounter += 1;
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      doctorId,
      firstName: 'María',
      middleName: 'José',
      lastName: `Núñez${patientCounter}`,
      dateOfBirth: '1980-04-09',
    })
    .returning();
  return row!.id;
}

/** Far-future slots two hours apart never collide with each other. */
let slotCounter = 0;
const nextSlot = () => new Date(Date.UTC(2031, 0, 1) + ++slotCounter * 2 * HOUR).toISOString();
let pastCounter = 0;
const pastSlot = () => new Date(Date.UTC(2025, 0, 1) + ++pastCounter * 2 * HOUR).toISOString();

async function book(overrides: Record<string, unknown> = {}, as: Who = 'staff') {
  const patientId = (overrides.patientId as string | undefined) ?? (await newPatient());
  const response = await call('POST', `${BASE}/schedule`, as, {
    patientId,
    doctorId: ids.doctor,
    startsAt: nextSlot(),
    durationMinutes: 30,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Appointment>();
}

async function lastLog(targetId: string) {
  const [log] = await t.db
    .select()
    .from(activityLogs)
    .where(eq(activityLogs.targetId, targetId))
    .orderBy(desc(activityLogs.chainSeq))
    .limit(1);
  return log;
}

const filtered = (as: Who, body: Record<string, unknown>) => call('POST', `${BASE}/filtered`, as, body);

describe("a deleted patient's appointments", () => {
  it('leave the list, its total and the single read when the patient is deleted', async () => {
    const patientId = await newPatient();
    const first = await book({ patientId });
    await book({ patientId });
    const before = await filtered('staff', { patientId, dateFilter: 9, startDate: '12/01/2030', endDate: '12/31/2032' });
    expect(before.json<AppointmentPage>()).toMatchObject({ totalRecords: 2, totalExact: true });
    expect((await call('DELETE', `/api/patients/${patientId}`, 'admin')).statusCode).toBe(204);
    const after = await filtered('staff', { patientId, dateFilter: 9, startDate: '12/01/2030', endDate: '12/31/2032' });
    expect(after.json<AppointmentPage>()).toMatchObject({ totalRecords: 0, totalExact: true, data: [] });
    expect((await call('GET', `${BASE}/${first.id}`, 'staff')).statusCode).toBe(404);
  });
});

describe('booking', () => {
  it('staff schedule an appointment with names from the patient, doctor, type and room, logged under Appointment Schedules', async () => {
    const patientId = await newPatient();
    const startsAt = nextSlot();
    const response = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId,
      doctorId: ids.doctor,
      appointmentTypeId: ids.type,
      roomId: ids.rooms[0],
      startsAt,
      durationMinutes: 45,
      reason: 'new_patient',
      painScore: 6,
      bodyLocationIds: [ids.bodyLocations[0]],
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<Appointment>();
    expect(created).toMatchObject({
      patient: { id: patientId, fullName: expect.stringMatching(/^María José Núñez\d+$/), birthDate: '1980-04-09' },
      doctor: { id: ids.doctor, name: 'Daniela Ortiz' },
      appointmentType: { id: ids.type },
      room: { id: ids.rooms[0], name: 'Room 1' },
      startsAt,
      durationMinutes: 45,
      status: 2,
      reason: 'new_patient',
      painScore: 6,
      bodyLocationIds: [ids.bodyLocations[0]],
      checkedInAt: null,
    });
    expect(await lastLog(created.id)).toMatchObject({ area: 'Appointment Schedules', action: 'Created' });
    expect((await lastLog(created.id))?.description).not.toContain('María');
  });

  it('POST creates through the Appointments area', async () => {
    const response = await call('POST', BASE, 'admin', {
      patientId: await newPatient(),
      doctorId: ids.doctor,
      startsAt: nextSlot(),
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<Appointment>();
    expect(created.durationMinutes).toBe(30);
    expect(await lastLog(created.id)).toMatchObject({ area: 'Appointments', action: 'Created' });
  });

  it('bad input answers 400 with the fields', async () => {
    const response = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId: 'nope',
      doctorId: ids.doctor,
      startsAt: 'tomorrow',
      painScore: 11,
      reason: 'walk_in',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields)).toEqual(
      expect.arrayContaining(['patientId', 'startsAt', 'painScore', 'reason']),
    );
  });

  it('a patient of another clinic answers 404 and nothing is stored', async () => {
    const foreign = await newPatient(ids.lakeside);
    const response = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId: foreign,
      doctorId: ids.doctor,
      startsAt: nextSlot(),
    });
    expect(response.statusCode).toBe(404);
    expect(await t.db.select().from(appointments).where(eq(appointments.patientId, foreign))).toHaveLength(0);
  });

  it('a room of another clinic, a non-doctor as doctor or a room used as a type answer 400 on that field', async () => {
    const patientId = await newPatient();
    const room = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId,
      doctorId: ids.doctor,
      roomId: ids.lakesideRoom,
      startsAt: nextSlot(),
    });
    expect(room.statusCode).toBe(400);
    expect(room.json()).toMatchObject({ fields: { roomId: 'invalid' } });
    const doctor = await call('POST', `${BASE}/schedule`, 'staff', { patientId, doctorId: ids.staff, startsAt: nextSlot() });
    expect(doctor.json()).toMatchObject({ fields: { doctorId: 'invalid' } });
    const type = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId,
      doctorId: ids.doctor,
      appointmentTypeId: ids.rooms[0],
      startsAt: nextSlot(),
    });
    expect(type.json()).toMatchObject({ fields: { appointmentTypeId: 'invalid' } });
  });

  it('the same doctor or the same room at an overlapping time answers 409; back-to-back is fine', async () => {
    const first = await book({ roomId: ids.rooms[1], durationMinutes: 60 });
    const start = Date.parse(first.startsAt);
    const sameDoctor = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId: await newPatient(),
      doctorId: ids.doctor,
      startsAt: new Date(start + 30 * 60_000).toISOString(),
    });
    expect(sameDoctor.statusCode).toBe(409);
    expect(sameDoctor.json<{ error: string }>().error).toMatch(/doctor already has an appointment/);
    const sameRoom = await call('POST', `${BASE}/schedule`, 'staff', {
      patientId: await newPatient(),
      doctorId: ids.otherDoctor,
      roomId: ids.rooms[1],
      startsAt: new Date(start - 15 * 60_000).toISOString(),
    });
    expect(sameRoom.statusCode).toBe(409);
    expect(sameRoom.json<{ error: string }>().error).toMatch(/room is already booked/);
    await book({ roomId: ids.rooms[1], startsAt: new Date(start + 60 * 60_000).toISOString() });
  });

  it('a Doctor books only for themself', async () => {
    const response = await call('POST', `${BASE}/schedule`, 'doctor', {
      patientId: await newPatient(ids.riverside, ids.doctor),
      doctorId: ids.otherDoctor,
      startsAt: nextSlot(),
    });
    expect(response.statusCode).toBe(403);
    await book({ patientId: await newPatient(ids.riverside, ids.doctor) }, 'doctor');
  });

  it.each([`${BASE}`, `${BASE}/schedule`])(
    "a Doctor booking (%s) another doctor's patient, or a patient without a doctor, gets 404 and learns nothing",
    async (url) => {
      for (const patientId of [await newPatient(ids.riverside, ids.otherDoctor), await newPatient()]) {
        expect((await call('GET', `/api/patients/${patientId}`, 'doctor')).statusCode).toBe(404);
        const response = await call('POST', url, 'doctor', { patientId, doctorId: ids.doctor, startsAt: nextSlot() });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('Núñez');
        expect(response.body).not.toContain('1980-04-09');
      }
    },
  );
});

describe('editing and moving', () => {
  it('PUT updates the appointment and logs it', async () => {
    const appointment = await book();
    const response = await call('PUT', `${BASE}/${appointment.id}`, 'staff', {
      patientId: appointment.patient.id,
      doctorId: ids.doctor,
      startsAt: appointment.startsAt,
      durationMinutes: 20,
      notes: 'Bring MRI',
      externalId: 'EHR-77',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Appointment>()).toMatchObject({ durationMinutes: 20, notes: 'Bring MRI', externalId: 'EHR-77' });
    expect(await lastLog(appointment.id)).toMatchObject({ area: 'Appointments', action: 'Updated' });
  });

  it("a Doctor cannot move their own appointment to another doctor's patient: 404", async () => {
    const appointment = await book({ patientId: await newPatient(ids.riverside, ids.doctor) }, 'doctor');
    const response = await call('PUT', `${BASE}/${appointment.id}`, 'doctor', {
      patientId: await newPatient(ids.riverside, ids.otherDoctor),
      doctorId: ids.doctor,
      startsAt: appointment.startsAt,
    });
    expect(response.statusCode).toBe(404);
    const [stored] = await t.db.select().from(appointments).where(eq(appointments.id, appointment.id));
    expect(stored?.patientId).toBe(appointment.patient.id);
  });

  it('another clinic gets 404 when updating', async () => {
    const appointment = await book();
    const response = await call('PUT', `${BASE}/${appointment.id}`, 'admin2', {
      patientId: appointment.patient.id,
      doctorId: ids.doctor,
      startsAt: appointment.startsAt,
    });
    expect(response.statusCode).toBe(404);
  });

  it('updateschedule moves an upcoming appointment and refuses an overlap', async () => {
    const a = await book();
    const b = await book();
    const moved = await call('POST', `${BASE}/updateschedule`, 'staff', { id: a.id, startsAt: nextSlot(), roomId: ids.rooms[2] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Appointment>().room?.id).toBe(ids.rooms[2]);
    expect(await lastLog(a.id)).toMatchObject({ area: 'Appointment Schedules', action: 'Updated' });
    const clash = await call('POST', `${BASE}/updateschedule`, 'staff', { id: a.id, startsAt: b.startsAt });
    expect(clash.statusCode).toBe(409);
  });

  it('a checked-in appointment cannot be moved', async () => {
    const a = await book();
    await call('POST', `${BASE}/checkin`, 'staff', { id: a.id });
    const response = await call('POST', `${BASE}/updateschedule`, 'staff', { id: a.id, startsAt: nextSlot() });
    expect(response.statusCode).toBe(409);
  });

  it('saveappointmentnote stores the note', async () => {
    const a = await book();
    const response = await call('POST', `${BASE}/saveappointmentnote/${a.id}`, 'doctor', { notes: 'Lumbar pain improving' });
    expect(response.statusCode).toBe(200);
    expect(response.json<Appointment>().notes).toBe('Lumbar pain improving');
    const tooLong = await call('POST', `${BASE}/saveappointmentnote/${a.id}`, 'doctor', { notes: 'x'.repeat(2001) });
    expect(tooLong.json()).toMatchObject({ fields: { notes: 'tooLong' } });
  });
});

describe('status rules', () => {
  it('check-in moves Upcoming to Checking_In under Checkins, and a second check-in is refused', async () => {
    const a = await book();
    const response = await call('POST', `${BASE}/checkin`, 'staff', { id: a.id });
    expect(response.statusCode).toBe(200);
    expect(response.json<Appointment>()).toMatchObject({ status: 1, checkedInAt: expect.any(String) });
    expect(await lastLog(a.id)).toMatchObject({ area: 'Checkins', action: 'Updated' });
    expect((await call('POST', `${BASE}/checkin`, 'staff', { id: a.id })).statusCode).toBe(409);
  });

  it('cancelling a check-in returns to Upcoming; cancelling an upcoming one is refused', async () => {
    const a = await book();
    expect((await call('POST', `${BASE}/cancelcheckin/${a.id}`, 'staff')).statusCode).toBe(409);
    await call('POST', `${BASE}/checkin`, 'staff', { id: a.id });
    const response = await call('POST', `${BASE}/cancelcheckin/${a.id}`, 'staff');
    expect(response.json<Appointment>()).toMatchObject({ status: 2, checkedInAt: null });
  });

  it('completing needs a check-in first, and Completed is final and cannot be deleted', async () => {
    const a = await book();
    expect((await call('PATCH', `${BASE}/${a.id}/status`, 'doctor', { status: 3 })).statusCode).toBe(409);
    await call('POST', `${BASE}/checkin`, 'staff', { id: a.id });
    const done = await call('PATCH', `${BASE}/${a.id}/status`, 'doctor', { status: 3 });
    expect(done.json<Appointment>().status).toBe(3);
    expect((await call('POST', `${BASE}/checkin`, 'staff', { id: a.id })).statusCode).toBe(409);
    expect((await call('POST', `${BASE}/cancelcheckin/${a.id}`, 'staff')).statusCode).toBe(409);
    expect((await call('PATCH', `${BASE}/${a.id}/status`, 'staff', { status: 4 })).statusCode).toBe(409);
    expect(
      (await call('PUT', `${BASE}/${a.id}`, 'staff', { patientId: a.patient.id, doctorId: ids.doctor, startsAt: a.startsAt }))
        .statusCode,
    ).toBe(409);
    const deleted = await call('DELETE', `${BASE}/delete/${a.id}`, 'admin');
    expect(deleted.statusCode).toBe(409);
    expect((await call('GET', `${BASE}/info/${a.id}`, 'admin')).statusCode).toBe(200);
  });

  it('no-show is refused before the start time and allowed after it, only from Upcoming', async () => {
    const future = await book();
    const early = await call('PATCH', `${BASE}/${future.id}/status`, 'staff', { status: 4 });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ error: string }>().error).toMatch(/after its start time/);
    const past = await book({ startsAt: pastSlot() });
    const response = await call('PATCH', `${BASE}/${past.id}/status`, 'staff', { status: 4 });
    expect(response.json<Appointment>().status).toBe(4);
    expect((await call('POST', `${BASE}/checkin`, 'staff', { id: past.id })).statusCode).toBe(409);
    const checkedIn = await book({ startsAt: pastSlot() });
    await call('POST', `${BASE}/checkin`, 'staff', { id: checkedIn.id });
    expect((await call('PATCH', `${BASE}/${checkedIn.id}/status`, 'staff', { status: 4 })).statusCode).toBe(409);
  });

  it('PATCH status accepts only Completed or No_Show', async () => {
    const a = await book();
    const response = await call('PATCH', `${BASE}/${a.id}/status`, 'staff', { status: 1 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { status: 'invalid' } });
  });

  it('a delayed check-in stores the new time; zero minutes is bad input; a checked-in one cannot be delayed', async () => {
    const a = await book();
    const before = Date.now();
    const response = await call('POST', `${BASE}/delayedcheckin/${a.id}`, 'staff', { minutes: 15 });
    expect(response.statusCode).toBe(200);
    const delayed = Date.parse(response.json<Appointment>().checkInDelayedUntil!);
    expect(delayed).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(await lastLog(a.id)).toMatchObject({ area: 'Checkins' });
    expect((await call('POST', `${BASE}/delayedcheckin/${a.id}`, 'staff', { minutes: 0 })).json()).toMatchObject({
      fields: { minutes: 'numberOutOfRange' },
    });
    const checked = await call('POST', `${BASE}/checkin`, 'staff', { id: a.id });
    expect(checked.json<Appointment>().checkInDelayedUntil).toBeNull();
    expect((await call('POST', `${BASE}/delayedcheckin/${a.id}`, 'staff', { minutes: 5 })).statusCode).toBe(409);
  });

  it('a user of another clinic cannot check in, delay or change status (404)', async () => {
    const a = await book();
    expect((await call('POST', `${BASE}/checkin`, 'admin2', { id: a.id })).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/delayedcheckin/${a.id}`, 'admin2', { minutes: 5 })).statusCode).toBe(404);
    expect((await call('PATCH', `${BASE}/${a.id}/status`, 'admin2', { status: 4 })).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/saveappointmentnote/${a.id}`, 'admin2', { notes: 'x' })).statusCode).toBe(404);
  });
});

describe('deleting', () => {
  it('staff delete softly and the appointment disappears; a Doctor gets 403; another clinic 404', async () => {
    const a = await book();
    expect((await call('DELETE', `${BASE}/delete/${a.id}`, 'doctor')).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}/delete/${a.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/delete/${a.id}`, 'staff')).statusCode).toBe(204);
    expect((await call('GET', `${BASE}/info/${a.id}`, 'staff')).statusCode).toBe(404);
    const [row] = await t.db.select().from(appointments).where(eq(appointments.id, a.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await lastLog(a.id)).toMatchObject({ area: 'Appointments', action: 'Deleted' });
  });
});

describe('reading', () => {
  it('info returns one appointment and logs the view; another clinic gets 404; a bad id 400', async () => {
    const a = await book();
    const response = await call('GET', `${BASE}/info/${a.id}`, 'manager');
    expect(response.json<Appointment>().id).toBe(a.id);
    expect(await lastLog(a.id)).toMatchObject({ area: 'Appointments', action: 'Viewed' });
    expect((await call('GET', `${BASE}/info/${a.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `${BASE}/info/abc`, 'admin')).statusCode).toBe(400);
  });

  // Decision 0070: a Doctor sees the appointments of the patients they treat (their doctor, or a visit with
  // them), a colleague's visit with such a patient included; doctorId narrows to one provider.
  it("a Doctor sees the visits of the patients they treat, a colleague's included, and no one else's", async () => {
    const patientId = await newPatient();
    const mine = await book({ patientId });
    const theirs = await book({ patientId, doctorId: ids.otherDoctor });
    const stranger = await newPatient();
    const notMine = await book({ patientId: stranger, doctorId: ids.otherDoctor });
    const body = { dateFilter: 9, startDate: '01/01/2031', endDate: '12/31/2032' };
    const idsOf = (response: Awaited<ReturnType<typeof filtered>>) =>
      response
        .json<AppointmentPage>()
        .data.map((item) => item.id)
        .sort();
    expect(idsOf(await filtered('doctor', { ...body, patientId }))).toEqual([mine.id, theirs.id].sort());
    expect(idsOf(await filtered('doctor', { ...body, patientId, doctorId: ids.otherDoctor }))).toEqual([theirs.id]);
    expect(idsOf(await filtered('doctor', { ...body, patientId: stranger }))).toEqual([]);
    expect((await call('GET', `${BASE}/info/${theirs.id}`, 'doctor')).statusCode).toBe(200);
    expect((await call('GET', `${BASE}/info/${notMine.id}`, 'doctor')).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/checkin`, 'doctor', { id: notMine.id })).statusCode).toBe(404);
    const asStaff = await filtered('staff', { ...body, patientId });
    expect(asStaff.json<AppointmentPage>().totalRecords).toBe(2);
    const narrowed = await filtered('staff', { ...body, patientId, doctorId: ids.otherDoctor });
    expect(narrowed.json<AppointmentPage>().data.map((item) => item.id)).toEqual([theirs.id]);
  });

  it('an empty filter means today in clinic time, page 0 of 15, and the answer has the paging fields', async () => {
    const response = await filtered('staff', {});
    expect(response.statusCode).toBe(200);
    expect(response.json<AppointmentPage>()).toMatchObject({ pageNumber: 0, pageSize: 15, message: '' });
  });

  it('date presets use the clinic’s day (Chicago, daylight saving included), not the server’s', async () => {
    const patientId = await newPatient();
    const now = Date.now();
    const todayStart = clinicTodayStart(now, ZONE).getTime();
    const tomorrowStart = clinicDayStartAfter(new Date(todayStart), 1, ZONE).getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    const earlyToday = await book({
      patientId,
      doctorId: ids.otherDoctor,
      startsAt: at(todayStart + 60_000),
      durationMinutes: 5,
    });
    const lateToday = await book({
      patientId,
      doctorId: ids.otherDoctor,
      startsAt: at(tomorrowStart - 10 * 60_000),
      durationMinutes: 5,
    });
    const yesterday = await book({
      patientId,
      doctorId: ids.otherDoctor,
      startsAt: at(todayStart - 10 * 60_000),
      durationMinutes: 5,
    });
    const tomorrow = await book({
      patientId,
      doctorId: ids.otherDoctor,
      startsAt: at(tomorrowStart + 10 * 60_000),
      durationMinutes: 5,
    });
    const idsOf = async (body: Record<string, unknown>) =>
      (await filtered('staff', { ...body, patientId })).json<AppointmentPage>().data.map((item) => item.id);
    expect(await idsOf({})).toEqual([earlyToday.id, lateToday.id]);
    expect(await idsOf({ dateFilter: 1 })).toEqual([earlyToday.id, lateToday.id]);
    expect(await idsOf({ dateFilter: 2 })).toEqual([yesterday.id]);
    expect(await idsOf({ dateFilter: 10 })).toEqual([tomorrow.id]);
    const mdy = clinicMdy(now, ZONE);
    expect(await idsOf({ dateFilter: 11, fixedDate: mdy })).toEqual([earlyToday.id, lateToday.id]);
    const day = await call('GET', `${BASE}/day`, 'staff');
    const dayIds = day.json<DaySchedule>().data.map((item) => item.id);
    expect(day.json<DaySchedule>().date).toBe(mdy);
    expect(dayIds).toEqual(expect.arrayContaining([earlyToday.id, lateToday.id]));
    expect(dayIds).not.toContain(yesterday.id);
    expect(dayIds).not.toContain(tomorrow.id);
  });

  it('custom range and fixed date need their dates; pain range must be in order (400 fields)', async () => {
    const custom = await filtered('staff', { dateFilter: 9 });
    expect(custom.statusCode).toBe(400);
    expect(custom.json()).toMatchObject({ fields: { startDate: 'required', endDate: 'required' } });
    expect((await filtered('staff', { dateFilter: 11, fixedDate: '02/30/2026' })).json()).toMatchObject({
      fields: { fixedDate: 'dateInvalid' },
    });
    expect((await filtered('staff', { painScoreMin: 8, painScoreMax: 2 })).json()).toMatchObject({
      fields: { painScoreMax: 'numberOutOfRange' },
    });
    expect((await filtered('staff', { dateFilter: 42 })).json()).toMatchObject({ fields: { dateFilter: 'invalid' } });
  });

  it('pain range, body location and status narrow the list', async () => {
    const patientId = await newPatient();
    const painful = await book({ patientId, painScore: 8, bodyLocationIds: [ids.bodyLocations[1]] });
    const mild = await book({ patientId, painScore: 2 });
    const unscored = await book({ patientId });
    const body = { dateFilter: 9, startDate: '01/01/2031', endDate: '12/31/2032', patientId };
    const idsOf = async (extra: Record<string, unknown>) =>
      (await filtered('staff', { ...body, ...extra })).json<AppointmentPage>().data.map((item) => item.id);
    expect(await idsOf({})).toEqual([painful.id, mild.id, unscored.id]);
    expect(await idsOf({ painScoreMin: 5, painScoreMax: 10 })).toEqual([painful.id]);
    expect(await idsOf({ painScoreMin: 0, painScoreMax: 3 })).toEqual([mild.id]);
    expect(await idsOf({ bodyLocation: ids.bodyLocations[1] })).toEqual([painful.id]);
    await call('POST', `${BASE}/checkin`, 'staff', { id: mild.id });
    expect(await idsOf({ status: 1 })).toEqual([mild.id]);
  });

  it('another clinic’s lists show nothing of this clinic', async () => {
    const a = await book();
    const riversidePatients = new Set(
      (await t.db.select({ id: patients.id }).from(patients).where(eq(patients.instanceId, ids.riverside))).map((row) => row.id),
    );
    const body = {
      dateFilter: 9,
      startDate: '01/01/2000',
      endDate: '12/31/2040',
      paginationFilter: { pageSize: 100, pageNumber: 0 },
    };
    const theirs = (await filtered('admin2', body)).json<AppointmentPage>();
    const all = (await call('GET', `${BASE}/all?pageSize=100`, 'admin2')).json<AppointmentPage>();
    for (const page of [theirs, all]) {
      expect(page.data.map((item) => item.id)).not.toContain(a.id);
      expect(page.data.filter((item) => riversidePatients.has(item.patient.id))).toEqual([]);
    }
    const byPatient = await filtered('admin2', { ...body, patientId: a.patient.id });
    expect(byPatient.json<AppointmentPage>().totalRecords).toBe(0);
  });

  it('GET all pages through every appointment of the clinic, newest first', async () => {
    const response = await call('GET', `${BASE}/all?pageSize=2&pageNumber=0`, 'admin');
    const page = response.json<AppointmentPage>();
    expect(page.data).toHaveLength(2);
    expect(page.totalRecords).toBeGreaterThan(2);
    expect(Date.parse(page.data[0]!.startsAt)).toBeGreaterThanOrEqual(Date.parse(page.data[1]!.startsAt));
    expect((await call('GET', `${BASE}/all?pageSize=0`, 'admin')).statusCode).toBe(400);
  });

  it('getappointmentstatus answers the statuses of visible ids only', async () => {
    const a = await book();
    const b = await book();
    await call('POST', `${BASE}/checkin`, 'staff', { id: b.id });
    const response = await call('POST', `${BASE}/getappointmentstatus`, 'staff', { ids: [a.id, b.id] });
    expect(response.json<AppointmentStatuses>()).toEqual(
      expect.arrayContaining([
        { id: a.id, status: 2 },
        { id: b.id, status: 1 },
      ]),
    );
    expect((await call('POST', `${BASE}/getappointmentstatus`, 'admin2', { ids: [a.id] })).json()).toEqual([]);
    expect((await call('POST', `${BASE}/getappointmentstatus`, 'staff', { ids: [] })).json()).toMatchObject({
      fields: { ids: 'required' },
    });
  });

  it('next-appointment gives the earliest upcoming visit, null when none, 404 for another clinic’s patient', async () => {
    const patientId = await newPatient();
    const none = await call('GET', `${BASE}/next-appointment?patientId=${patientId}`, 'staff');
    expect(none.json()).toEqual({ appointment: null });
    await book({ patientId, startsAt: pastSlot() });
    const later = await book({ patientId });
    const response = await call('GET', `${BASE}/next-appointment?patientId=${patientId}`, 'staff');
    expect(response.json<{ appointment: Appointment }>().appointment.id).toBe(later.id);
    expect((await call('GET', `${BASE}/next-appointment?patientId=${patientId}`, 'admin2')).statusCode).toBe(404);
    const othersPatient = await newPatient(ids.riverside, ids.otherDoctor);
    expect((await call('GET', `${BASE}/next-appointment?patientId=${othersPatient}`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `${BASE}/next-appointment?patientId=x`, 'staff')).statusCode).toBe(400);
  });
});

describe('exports', () => {
  it('exporttocsv sends UTF-8 with a byte-order mark, the visible columns and clinic times', async () => {
    const patientId = await newPatient();
    await book({ patientId, startsAt: '2031-06-01T15:00:00.000Z', roomId: ids.rooms[3], durationMinutes: 15 });
    const response = await call('POST', `${BASE}/exporttocsv`, 'staff', {
      dateFilter: 11,
      fixedDate: '06/01/2031',
      patientId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="appointments-\d{4}-\d{2}-\d{2}\.csv"/);
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = response.rawPayload.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe(
      'Patient,Date of birth,Doctor,Appointment type,Room,Start,Duration (min),Status,Reason,Pain score,External id',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^María José Núñez\d+,04\/09\/1980,Daniela Ortiz,,Room 4,06\/01\/2031 10:00 AM,15,Upcoming,,,$/);
  });

  it('the Spanish export has Spanish headers and the no-show export only no-shows', async () => {
    const patientId = await newPatient();
    const missed = await book({ patientId, startsAt: pastSlot() });
    await book({ patientId, startsAt: pastSlot() });
    await call('PATCH', `${BASE}/${missed.id}/status`, 'staff', { status: 4 });
    const response = await call('POST', `${BASE}/exportnoshowappointments`, 'staff', {
      dateFilter: 9,
      startDate: '01/01/2025',
      endDate: '12/31/2025',
      patientId,
      language: 'es',
    });
    const lines = response.rawPayload.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]!.startsWith('Paciente,Fecha de nacimiento')).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('No se presentó');
    expect(response.headers['content-disposition']).toContain('no-show-appointments-');
  });

  it('an export with a bad filter answers 400 and another clinic’s export is empty', async () => {
    expect((await call('POST', `${BASE}/exporttocsv`, 'staff', { dateFilter: 9 })).statusCode).toBe(400);
    const a = await book();
    const foreign = await call('POST', `${BASE}/exporttocsv`, 'admin2', {
      dateFilter: 9,
      startDate: '01/01/2000',
      endDate: '12/31/2040',
      patientId: a.patient.id,
    });
    expect(foreign.rawPayload.toString('utf8').slice(1).trim().split('\r\n')).toHaveLength(1);
  });
});
