import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientView } from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import {
  activityLogs,
  appointmentProSets,
  appointments,
  patientLinks,
  patientNotes,
  patientPhoneNumbers,
  patients,
  userInstances,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { importTestWording } from '../../../test/instrument-wording';

/**
 * Issue #16 §5: a Doctor reaches only the patients they treat (their doctor, or a visit with them), for
 * writes as for reads. Every write route that names another doctor's patient (or nobody's), or an appointment,
 * note or link of that patient, answers 404 and changes nothing; the two routes closed to Doctors
 * altogether answer 403. Each route is also called on the Doctor's own patient, with the same payload,
 * as its positive control: it works there, so a 404 cannot come from a wrong path, a bad payload or a
 * record in the wrong state.
 *
 * The stranger's appointment is booked with a colleague, so the Doctor has no treatment relationship
 * with them. A visit booked with the Doctor makes the patient theirs to see (decision 0070): the last
 * describe block below.
 */
let t: TestApp;
type Who = 'staff' | 'doctor';
type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const headers: Record<Who, Record<string, string>> = { staff: {}, doctor: {} };
let doctorId = '';
let colleagueId = '';

const call = (as: Who, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: headers[as], payload: payload as never, remoteAddress: nextIp() });

async function expectStatus(response: Awaited<ReturnType<typeof call>>, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<{ id: string }>();
}

let counter = 0;
const patientPayload = (doctor: string | null) => ({
  firstName: 'Inés',
  lastName: `Scope${++counter}`,
  dateOfBirth: '1971-03-09',
  doctorId: doctor,
  patientPhoneNumbers: [{ phoneType: 7, number: '(555) 201-3344', isPrimary: true }],
});

/** Upcoming slots 90 minutes apart, past the demo clinic's seeded calendar, so no booking meets another. */
const firstSlot = Date.UTC(2032, 5, 1, 12);
let slot = 0;
const nextSlot = () => new Date(firstSlot + ++slot * 90 * 60_000).toISOString();

interface Records {
  patientId: string;
  appointmentId: string;
  /** Written by the Doctor (while the patient was theirs), so only the patient scope can refuse it. */
  noteId: string;
  linkId: string;
}
type Owner = 'mine' | 'nobody' | 'colleague';

/**
 * A patient with an upcoming appointment, a note by the Doctor and an open questionnaire link. The
 * patient starts as the Doctor's (so the Doctor can write the note) and Staff then hands them to
 * `owner`; the appointment is with the patient's doctor (the colleague when nobody is).
 */
async function patientWithRecords(owner: Owner): Promise<Records> {
  const patientDoctor = { mine: doctorId, nobody: null, colleague: colleagueId }[owner];
  const created = await call('staff', 'POST', '/api/patients/create', patientPayload(doctorId));
  const patientId = (await expectStatus(created, 201)).id;
  const note = await call('doctor', 'POST', `/api/patients/${patientId}/notes`, { body: 'Seen for lumbar pain.' });
  const noteId = (await expectStatus(note, 201)).id;
  // Handed to `owner` (for 'mine' the same doctor again, so every patient is made the same way).
  const handedOver = await call('staff', 'PUT', `/api/patients/${patientId}`, patientPayload(patientDoctor));
  await expectStatus(handedOver, 200);
  expect(handedOver.json<PatientView>().doctorId).toBe(patientDoctor);
  const booked = await call('staff', 'POST', '/api/patientappointments/schedule', {
    patientId,
    doctorId: patientDoctor ?? colleagueId,
    startsAt: nextSlot(),
    durationMinutes: 30,
  });
  const appointmentId = (await expectStatus(booked, 201)).id;
  const link = await call('staff', 'POST', '/api/patient-links', { patientId, appointmentId, formCode: 1 });
  const linkId = (await expectStatus(link, 201)).id;
  return { patientId, appointmentId, noteId, linkId };
}

/** Everything a write could touch for these patients, and every activity entry the Doctor made. */
async function snapshot(...sets: Records[]) {
  const patientIds = sets.map((set) => set.patientId);
  const visits = await t.db
    .select()
    .from(appointments)
    .where(inArray(appointments.patientId, patientIds))
    .orderBy(asc(appointments.id));
  const data = {
    patients: await t.db.select().from(patients).where(inArray(patients.id, patientIds)).orderBy(asc(patients.id)),
    phones: await t.db
      .select()
      .from(patientPhoneNumbers)
      .where(inArray(patientPhoneNumbers.patientId, patientIds))
      .orderBy(asc(patientPhoneNumbers.id)),
    appointments: visits,
    proSets: await t.db
      .select()
      .from(appointmentProSets)
      .where(
        inArray(
          appointmentProSets.appointmentId,
          visits.map((visit) => visit.id),
        ),
      )
      .orderBy(asc(appointmentProSets.appointmentId)),
    notes: await t.db
      .select()
      .from(patientNotes)
      .where(inArray(patientNotes.patientId, patientIds))
      .orderBy(asc(patientNotes.id)),
    links: await t.db
      .select()
      .from(patientLinks)
      .where(inArray(patientLinks.patientId, patientIds))
      .orderBy(asc(patientLinks.id)),
  };
  const doctorsActivity = await t.db
    .select({ id: activityLogs.id })
    .from(activityLogs)
    .where(eq(activityLogs.actorUserId, doctorId))
    .orderBy(asc(activityLogs.id));
  return { data, doctorsActivity };
}

beforeAll(async () => {
  t = await createTestApp();
  headers.staff = (await signIn(t.app, 'staff@pathwell.demo')).headers;
  const doctor = await signIn(t.app, 'doctor@pathwell.demo');
  headers.doctor = doctor.headers;
  doctorId = doctor.id;
  // A colleague: a second Doctor of the same clinic.
  const [home] = await t.db.select({ instanceId: users.instanceId }).from(users).where(eq(users.id, doctorId));
  const [colleague] = await t.db
    .insert(users)
    .values({
      email: 'colleague.doctor@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: home!.instanceId,
    })
    .returning({ id: users.id });
  await t.db.insert(userInstances).values({ userId: colleague!.id, instanceId: home!.instanceId! });
  // Links and assignments below name ODI and NDI: the clinic holds their licensed wording (decision 0061).
  await importTestWording(t.db, home!.instanceId!, 2);
  await importTestWording(t.db, home!.instanceId!, 3);
  colleagueId = colleague!.id;
});
afterAll(async () => {
  await t?.close();
});

interface Write {
  name: string;
  method: Method;
  /** `target` is the patient under test (a stranger, or the Doctor's own); `mine` is always the Doctor's own. */
  url: (target: Records, mine: Records) => string;
  body?: (target: Records, mine: Records) => unknown;
  /** Staff first put the record where the call would succeed (a check-in to cancel, an archive to undo). */
  prepare?: (target: Records) => Promise<unknown>;
  /** The answer on another doctor's patient: 404, or 403 for a route closed to Doctors. */
  refused: 403 | 404;
  /** The answer on the Doctor's own patient (the positive control). */
  own: number;
}

const checkIn = async (target: Records) =>
  expectStatus(await call('staff', 'POST', '/api/patientappointments/checkin', { id: target.appointmentId }), 200);

const appointmentBody = (target: Records) => ({
  patientId: target.patientId,
  doctorId,
  startsAt: nextSlot(),
  durationMinutes: 30,
});

const writes: Write[] = [
  // patients.routes.ts
  {
    name: 'update the patient (PUT /api/patients/:id)',
    method: 'PUT',
    url: (target) => `/api/patients/${target.patientId}`,
    body: () => patientPayload(doctorId),
    refused: 404,
    own: 200,
  },
  {
    name: 'archive the patient (POST /api/patients/:id/archive)',
    method: 'POST',
    url: (target) => `/api/patients/${target.patientId}/archive?reason=Moved%20away`,
    refused: 404,
    own: 200,
  },
  {
    name: 'unarchive the patient (POST /api/patients/unarchive/:id)',
    method: 'POST',
    url: (target) => `/api/patients/unarchive/${target.patientId}`,
    prepare: async (target) =>
      expectStatus(await call('staff', 'POST', `/api/patients/${target.patientId}/archive?reason=Moved`), 200),
    refused: 404,
    own: 200,
  },
  {
    name: 'switch the patient inactive (POST /api/patients/updateactiveinactive/:id)',
    method: 'POST',
    url: (target) => `/api/patients/updateactiveinactive/${target.patientId}`,
    body: () => ({ isActive: false }),
    refused: 404,
    own: 200,
  },
  {
    name: 'close the account (POST /api/patients/closeaccount)',
    method: 'POST',
    url: () => '/api/patients/closeaccount',
    body: (target) => ({ id: target.patientId }),
    refused: 404,
    own: 200,
  },
  {
    name: 'reopen the account (POST /api/patients/reopenaccount/:id)',
    method: 'POST',
    url: (target) => `/api/patients/reopenaccount/${target.patientId}`,
    refused: 404,
    own: 200,
  },
  {
    name: 'delete the patient (DELETE /api/patients/:id, Admin and System Manager only)',
    method: 'DELETE',
    url: (target) => `/api/patients/${target.patientId}`,
    refused: 403,
    own: 403,
  },
  // patient-dashboard.routes.ts
  {
    name: 'add a note (POST /api/patients/:id/notes)',
    method: 'POST',
    url: (target) => `/api/patients/${target.patientId}/notes`,
    body: () => ({ body: 'Written by the wrong doctor' }),
    refused: 404,
    own: 201,
  },
  {
    name: 'change their own note (PUT /api/patients/:id/notes/:noteId)',
    method: 'PUT',
    url: (target) => `/api/patients/${target.patientId}/notes/${target.noteId}`,
    body: () => ({ body: 'Changed' }),
    refused: 404,
    own: 200,
  },
  {
    name: 'delete their own note (DELETE /api/patients/:id/notes/:noteId)',
    method: 'DELETE',
    url: (target) => `/api/patients/${target.patientId}/notes/${target.noteId}`,
    refused: 404,
    own: 204,
  },
  // patient-links.routes.ts
  {
    name: 'send a questionnaire link (POST /api/patient-links)',
    method: 'POST',
    url: () => '/api/patient-links',
    body: (target) => ({ patientId: target.patientId, formCode: 2 }),
    refused: 404,
    own: 201,
  },
  {
    name: 'revoke a link (DELETE /api/patient-links/:id)',
    method: 'DELETE',
    url: (target) => `/api/patient-links/${target.linkId}`,
    refused: 404,
    own: 204,
  },
  // appointments.routes.ts
  {
    name: 'book an appointment (POST /api/patientappointments)',
    method: 'POST',
    url: () => '/api/patientappointments',
    body: appointmentBody,
    refused: 404,
    own: 201,
  },
  {
    name: 'schedule an appointment (POST /api/patientappointments/schedule)',
    method: 'POST',
    url: () => '/api/patientappointments/schedule',
    body: appointmentBody,
    refused: 404,
    own: 201,
  },
  {
    name: 'change the appointment (PUT /api/patientappointments/:id)',
    method: 'PUT',
    url: (target) => `/api/patientappointments/${target.appointmentId}`,
    body: appointmentBody,
    refused: 404,
    own: 200,
  },
  {
    name: 'move their own appointment onto the patient (PUT /api/patientappointments/:id, patient in the body)',
    method: 'PUT',
    url: (_target, mine) => `/api/patientappointments/${mine.appointmentId}`,
    body: appointmentBody,
    refused: 404,
    own: 200,
  },
  {
    name: 'move the appointment (POST /api/patientappointments/updateschedule)',
    method: 'POST',
    url: () => '/api/patientappointments/updateschedule',
    body: (target) => ({ id: target.appointmentId, startsAt: nextSlot() }),
    refused: 404,
    own: 200,
  },
  {
    name: 'check the patient in (POST /api/patientappointments/checkin)',
    method: 'POST',
    url: () => '/api/patientappointments/checkin',
    body: (target) => ({ id: target.appointmentId }),
    refused: 404,
    own: 200,
  },
  {
    name: 'delay the check-in (POST /api/patientappointments/delayedcheckin/:id)',
    method: 'POST',
    url: (target) => `/api/patientappointments/delayedcheckin/${target.appointmentId}`,
    body: () => ({ minutes: 15 }),
    refused: 404,
    own: 200,
  },
  {
    name: 'cancel the check-in (POST /api/patientappointments/cancelcheckin/:id)',
    method: 'POST',
    url: (target) => `/api/patientappointments/cancelcheckin/${target.appointmentId}`,
    prepare: checkIn,
    refused: 404,
    own: 200,
  },
  {
    name: 'complete the visit (PATCH /api/patientappointments/:id/status)',
    method: 'PATCH',
    url: (target) => `/api/patientappointments/${target.appointmentId}/status`,
    body: () => ({ status: 3 }),
    prepare: checkIn,
    refused: 404,
    own: 200,
  },
  {
    name: 'write the visit note (POST /api/patientappointments/saveappointmentnote/:id)',
    method: 'POST',
    url: (target) => `/api/patientappointments/saveappointmentnote/${target.appointmentId}`,
    body: () => ({ notes: 'Wrong doctor' }),
    refused: 404,
    own: 200,
  },
  {
    name: 'delete the appointment (DELETE /api/patientappointments/delete/:id, not for Doctors)',
    method: 'DELETE',
    url: (target) => `/api/patientappointments/delete/${target.appointmentId}`,
    refused: 403,
    own: 403,
  },
  // form-responses.routes.ts: its only write that names a patient's record (no route lets staff enter
  // a response; responses arrive through patient links only).
  {
    name: 'choose the outcome forms (PUT /api/patientappointments/assigned-pro)',
    method: 'PUT',
    url: () => '/api/patientappointments/assigned-pro',
    body: (target) => ({ appointmentId: target.appointmentId, formCodes: [1, 3] }),
    refused: 404,
    own: 200,
  },
];

/** One row per route, named in full (vitest shortens an object's fields in a test name). */
const table = (answer: 'refused' | 'own') => writes.map((write) => [write.name, write[answer], write] as const);

describe.each([
  ["nobody's", 'nobody'],
  ["a colleague's", 'colleague'],
] as const)('a Doctor writing to %s patient', (_label, owner) => {
  it.each(table('refused'))('cannot %s: %i, and nothing changes', async (_name, _status, write) => {
    const target = await patientWithRecords(owner);
    const mine = await patientWithRecords('mine');
    await write.prepare?.(target);
    const before = await snapshot(target, mine);
    const response = await call('doctor', write.method, write.url(target, mine), write.body?.(target, mine));
    expect(response.statusCode, response.body).toBe(write.refused);
    expect(await snapshot(target, mine)).toEqual(before);
  });
});

describe("the same calls on the Doctor's own patient (positive control)", () => {
  const own = table('own');
  it.each(own.filter(([, status]) => status < 400))(
    'on their own patient, %s answers %i and changes the rows',
    async (_name, _status, write) => {
      const mine = await patientWithRecords('mine');
      await write.prepare?.(mine);
      const before = await snapshot(mine);
      const response = await call('doctor', write.method, write.url(mine, mine), write.body?.(mine, mine));
      expect(response.statusCode, response.body).toBe(write.own);
      // The rows of the snapshot see the write, so their silence above means something.
      expect((await snapshot(mine)).data).not.toEqual(before.data);
    },
  );
  it.each(own.filter(([, status]) => status >= 400))(
    'on their own patient, %s answers %i and changes nothing',
    async (_name, _status, write) => {
      const mine = await patientWithRecords('mine');
      await write.prepare?.(mine);
      const before = await snapshot(mine);
      const response = await call('doctor', write.method, write.url(mine, mine), write.body?.(mine, mine));
      expect(response.statusCode, response.body).toBe(write.own);
      expect(await snapshot(mine)).toEqual(before);
    },
  );
});

/**
 * Issue #26 §6, decision 0070: one rule for a Doctor's patients. A Doctor sees a patient they are the
 * doctor of, or one they have a live appointment with (a treatment relationship), on the patient,
 * dashboard, appointment, search, list and export routes alike; a colleague's visit with that patient
 * is visible too. When the visit is deleted the relationship ends and every route answers 404 again.
 */
describe('a patient the Doctor treats through a visit, whose doctor is someone else', () => {
  it.each([
    ["a colleague's patient", 'colleague'],
    ["nobody's patient", 'nobody'],
  ] as const)(
    '%s with a visit booked with the Doctor is visible everywhere, and again hidden once the visit is deleted',
    async (_label, owner) => {
      const target = await patientWithRecords(owner);
      const hidden = await call('doctor', 'PUT', `/api/patients/${target.patientId}`, patientPayload(colleagueId));
      expect(hidden.statusCode, 'no relationship yet').toBe(404);

      const booked = await call('staff', 'POST', '/api/patientappointments/schedule', {
        patientId: target.patientId,
        doctorId,
        startsAt: nextSlot(),
        durationMinutes: 30,
      });
      const visitId = (await expectStatus(booked, 201)).id;
      const lastName = (await t.db.select().from(patients).where(eq(patients.id, target.patientId)))[0]!.lastName;

      const reads = async () => {
        const get = (url: string) => t.app.inject({ method: 'GET', url, headers: headers.doctor, remoteAddress: nextIp() });
        const list = await t.app.inject({
          method: 'POST',
          url: '/api/patients/filtered',
          headers: headers.doctor,
          payload: { lastName, patientStatus: 'All' },
          remoteAddress: nextIp(),
        });
        const exported = await t.app.inject({
          method: 'POST',
          url: '/api/patients/exporttocsv',
          headers: headers.doctor,
          payload: { lastName, patientStatus: 'All' },
          remoteAddress: nextIp(),
        });
        const search = await get(`/api/patients/search?searchParam=${encodeURIComponent(lastName)}`);
        return {
          patient: (await get(`/api/patients/${target.patientId}`)).statusCode,
          dashboard: (await get(`/api/patients/${target.patientId}/dashboard`)).statusCode,
          ownVisit: (await get(`/api/patientappointments/info/${visitId}`)).statusCode,
          colleaguesVisit: (await get(`/api/patientappointments/info/${target.appointmentId}`)).statusCode,
          listed: list.json<{ data: { id: string }[] }>().data.map((row) => row.id),
          exported: exported.body.includes(lastName),
          searched: search.json<{ id: string }[]>().map((row) => row.id),
        };
      };

      expect(await reads()).toEqual({
        patient: 200,
        dashboard: 200,
        ownVisit: 200,
        colleaguesVisit: 200,
        listed: [target.patientId],
        exported: true,
        searched: [target.patientId],
      });

      // The Doctor may change the record they treat, but does not take the patient from their doctor.
      const updated = await call('doctor', 'PUT', `/api/patients/${target.patientId}`, patientPayload(doctorId));
      expect((await expectStatus(updated, 200)) && updated.json<PatientView>().doctorId).toBe(
        owner === 'colleague' ? colleagueId : null,
      );

      const admin = (await signIn(t.app, 'admin@pathwell.demo')).headers;
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/patientappointments/delete/${visitId}`,
        headers: admin,
        remoteAddress: nextIp(),
      });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expect(await reads()).toEqual({
        patient: 404,
        dashboard: 404,
        ownVisit: 404,
        colleaguesVisit: 404,
        listed: [],
        exported: false,
        searched: [],
      });
    },
  );
});
