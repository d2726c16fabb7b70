import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientView } from '@pathwell/contracts/patients';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { RoleCode } from '@pathwell/contracts/roles';
import { activityLogs, appointments, patientLinks, patientNotes, patients, userInstances, users } from '../../db/schema';

/**
 * Issue #16 §5: a Doctor reaches only their own patients (and their own appointments), for writes as
 * for reads. Every write route that names another doctor's patient, or an appointment, note or link of
 * that patient, answers 404 and changes nothing. One positive control shows the same calls work on the
 * Doctor's own patient, so a 404 cannot come from a broken payload.
 */
let t: TestApp;
const headers: Record<'staff' | 'doctor', Record<string, string>> = { staff: {}, doctor: {} };
let doctorId = '';
let stranger: { patientId: string; appointmentId: string; noteId: string; linkId: string };
let own: { patientId: string; appointmentId: string; noteId: string };

const call = (as: 'staff' | 'doctor', method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: headers[as], payload: payload as never, remoteAddress: nextIp() });

let counter = 0;
const patientPayload = (doctor: string | null) => ({
  firstName: 'Inés',
  lastName: `Scope${++counter}`,
  dateOfBirth: '1971-03-09',
  doctorId: doctor,
  patientPhoneNumbers: [{ phoneType: 7, number: '(555) 201-3344', isPrimary: true }],
});
let slot = 0;
const nextSlot = () => new Date(Date.UTC(2032, 5, 1) + ++slot * 3 * 3_600_000).toISOString();

/** A patient, an upcoming appointment, a note and a link, made by Staff for `doctor`. */
async function patientWithRecords(doctor: string | null, appointmentDoctor: string) {
  const created = await call('staff', 'POST', '/api/patients/create', patientPayload(doctor));
  expect(created.statusCode, created.body).toBe(201);
  const patientId = created.json<PatientView>().id;
  const booked = await call('staff', 'POST', '/api/patientappointments/schedule', {
    patientId,
    doctorId: appointmentDoctor,
    startsAt: nextSlot(),
    durationMinutes: 30,
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const note = await call('staff', 'POST', `/api/patients/${patientId}/notes`, { body: 'Called about the MRI.' });
  expect(note.statusCode, note.body).toBe(201);
  const link = await call('staff', 'POST', '/api/patient-links', { patientId, formCode: 1 });
  expect(link.statusCode, link.body).toBe(201);
  return {
    patientId,
    appointmentId: booked.json<{ id: string }>().id,
    noteId: note.json<{ id: string }>().id,
    linkId: link.json<{ id: string }>().id,
  };
}

/** What a write could change: the rows themselves and the activity log. */
async function snapshot() {
  const [patient] = await t.db.select().from(patients).where(eq(patients.id, stranger.patientId));
  const [appointment] = await t.db.select().from(appointments).where(eq(appointments.id, stranger.appointmentId));
  const notes = await t.db.select().from(patientNotes).where(eq(patientNotes.patientId, stranger.patientId));
  const links = await t.db.select().from(patientLinks).where(eq(patientLinks.patientId, stranger.patientId));
  const log = await t.db.select({ id: activityLogs.id }).from(activityLogs).where(eq(activityLogs.actorUserId, doctorId));
  return { patient, appointment, notes, links, logCount: log.length };
}

beforeAll(async () => {
  t = await createTestApp();
  headers.staff = (await signIn(t.app, 'staff@pathwell.demo')).headers;
  headers.doctor = (await signIn(t.app, 'doctor@pathwell.demo')).headers;
  const [doctor] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  doctorId = doctor!.id;
  // Another doctor of the clinic: the appointment of the stranger patient is theirs.
  const [home] = await t.db.select({ instanceId: users.instanceId }).from(users).where(eq(users.id, doctorId));
  const [other] = await t.db
    .insert(users)
    .values({
      email: 'other.doctor@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: home!.instanceId,
    })
    .returning({ id: users.id });
  await t.db.insert(userInstances).values({ userId: other!.id, instanceId: home!.instanceId! });
  stranger = await patientWithRecords(null, other!.id);
  own = await patientWithRecords(doctorId, doctorId);
});
afterAll(async () => {
  await t?.close();
});

type Write = [name: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: () => string, body: () => unknown];

const writes: Write[] = [
  ['update the patient', 'PUT', () => `/api/patients/${stranger.patientId}`, () => patientPayload(doctorId)],
  ['archive the patient', 'POST', () => `/api/patients/${stranger.patientId}/archive?reason=Moved`, () => undefined],
  ['unarchive the patient', 'POST', () => `/api/patients/unarchive/${stranger.patientId}`, () => undefined],
  [
    'switch the patient off',
    'POST',
    () => `/api/patients/updateactiveinactive/${stranger.patientId}`,
    () => ({ isActive: false }),
  ],
  ['close the account', 'POST', () => '/api/patients/closeaccount', () => ({ id: stranger.patientId })],
  ['add a note', 'POST', () => `/api/patients/${stranger.patientId}/notes`, () => ({ body: 'Written by the wrong doctor' })],
  ['change a note', 'PUT', () => `/api/patients/${stranger.patientId}/notes/${stranger.noteId}`, () => ({ body: 'Changed' })],
  ['delete a note', 'DELETE', () => `/api/patients/${stranger.patientId}/notes/${stranger.noteId}`, () => undefined],
  ['send a questionnaire link', 'POST', () => '/api/patient-links', () => ({ patientId: stranger.patientId, formCode: 2 })],
  ['revoke a link', 'DELETE', () => `/api/patient-links/${stranger.linkId}`, () => undefined],
  [
    'book an appointment',
    'POST',
    () => '/api/patientappointments',
    () => ({ patientId: stranger.patientId, doctorId, startsAt: nextSlot(), durationMinutes: 30 }),
  ],
  [
    'schedule an appointment',
    'POST',
    () => '/api/patientappointments/schedule',
    () => ({ patientId: stranger.patientId, doctorId, startsAt: nextSlot(), durationMinutes: 30 }),
  ],
  [
    'change the appointment',
    'PUT',
    () => `/api/patientappointments/${stranger.appointmentId}`,
    () => ({ patientId: stranger.patientId, doctorId, startsAt: nextSlot(), durationMinutes: 30 }),
  ],
  [
    'move the appointment',
    'POST',
    () => '/api/patientappointments/updateschedule',
    () => ({ id: stranger.appointmentId, startsAt: nextSlot() }),
  ],
  ['check the patient in', 'POST', () => '/api/patientappointments/checkin', () => ({ id: stranger.appointmentId })],
  [
    'delay the check-in',
    'POST',
    () => `/api/patientappointments/delayedcheckin/${stranger.appointmentId}`,
    () => ({ minutes: 15 }),
  ],
  ['cancel the check-in', 'POST', () => `/api/patientappointments/cancelcheckin/${stranger.appointmentId}`, () => undefined],
  ['mark a no-show', 'PATCH', () => `/api/patientappointments/${stranger.appointmentId}/status`, () => ({ status: 4 })],
  [
    'write the visit note',
    'POST',
    () => `/api/patientappointments/saveappointmentnote/${stranger.appointmentId}`,
    () => ({ notes: 'Wrong doctor' }),
  ],
  [
    'choose the outcome forms',
    'PUT',
    () => '/api/patientappointments/assigned-pro',
    () => ({ appointmentId: stranger.appointmentId, formCodes: [1] }),
  ],
];

describe("a Doctor writing to another doctor's patient", () => {
  it.each(writes)('cannot %s: 404, and nothing changes', async (_name, method, url, body) => {
    const before = await snapshot();
    const response = await call('doctor', method, url(), body());
    expect(response.statusCode, response.body).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('can make the same kinds of change on their own patient and appointment (the payloads are good)', async () => {
    const checks = [
      await call('doctor', 'PUT', `/api/patients/${own.patientId}`, patientPayload(doctorId)),
      await call('doctor', 'PUT', `/api/patients/${own.patientId}/notes/${own.noteId}`, {
        body: 'Changed by the author? no: by the doctor',
      }),
      await call('doctor', 'POST', '/api/patient-links', { patientId: own.patientId, formCode: 2 }),
      await call('doctor', 'POST', `/api/patientappointments/saveappointmentnote/${own.appointmentId}`, { notes: 'Seen' }),
      await call('doctor', 'PUT', '/api/patientappointments/assigned-pro', { appointmentId: own.appointmentId, formCodes: [1] }),
    ];
    expect(checks.map((response) => response.statusCode)).toEqual([200, 403, 201, 200, 200]);
  });
});
