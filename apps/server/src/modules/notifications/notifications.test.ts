import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList, NotificationPage } from '@pathwell/contracts/messaging';
import type { CreatedPatientLink } from '@pathwell/contracts/patient-links';
import { RoleCode } from '@pathwell/contracts/roles';
import { activityLogs, appointments, instances, notifications, patients, userInstances, users } from '../../db/schema';
import { withSystemAccess } from '../../db/tenancy';
import type { StaffEvent } from '../events/event-hub';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { notifyIfAppointmentFormsComplete } from './notifications.service';

let t: TestApp;
let riverside: string;
let lakeside: string;
type Who = 'admin' | 'staff' | 'doctor' | 'otherDoctor' | 'admin2';
const users_ = {} as Record<Who, { headers: Record<string, string>; id: string }>;
const ids = {} as { patient: string; appointment: string; otherAppointment: string; rollbackAppointment: string };
const PATIENT = {
  firstName: 'Marisol',
  lastName: 'Quintana',
  dateOfBirth: '1968-11-04',
  verify: { lastName: 'Quintana', dateOfBirth: '11/04/1968' },
};

const call = (method: 'GET' | 'POST', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: users_[as].headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const open = (method: 'POST', url: string, payload: unknown, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: payload as object,
    remoteAddress: nextIp(),
  });

async function createLink(appointmentId: string) {
  const response = await call('POST', '/api/patient-links', 'staff', {
    patientId: ids.patient,
    appointmentId,
    formCode: 11,
    language: 'en',
  });
  expect(response.statusCode, response.body).toBe(201);
  const link = response.json<CreatedPatientLink>();
  const verified = await open('POST', `/api/patient-links/${link.token}/verify`, PATIENT.verify);
  expect(verified.statusCode, verified.body).toBe(200);
  return { token: link.token, access: verified.json<{ accessToken: string }>().accessToken };
}
const phq9Answers = () => ({ q1: 1, q2: 1, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0, q8: 0, q9: 0, q10: 0 });
const submit = (link: { token: string; access: string }, idempotencyKey = randomUUID()) =>
  open(
    'POST',
    `/api/patient-links/${link.token}/submit`,
    { idempotencyKey, language: 'en', answers: phq9Answers() },
    link.access,
  );

const notificationsOfAppointment = (appointmentId: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.instanceId, riverside), eq(notifications.appointmentId, appointmentId)));
const bell = async (as: Who) => {
  const response = await call('GET', '/api/notifications', as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<NotificationList>();
};
const ofPatient = (list: NotificationList | NotificationPage) => list.data.filter((item) => item.patientId === ids.patient);

async function waitUntil(check: () => boolean, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = clinics.find((row) => row.name === 'Lakeside Pain Center')!.id;
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  // A second Doctor of the same clinic, who is not this patient's doctor.
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'doctor.other@pathwell.demo',
      firstName: 'Omar',
      lastName: 'Haddad',
      role: RoleCode.Doctor,
      instanceId: riverside,
      passwordHash: doctor!.passwordHash,
      status: 'active',
    })
    .returning();
  await t.db.insert(userInstances).values({ userId: otherDoctor!.id, instanceId: riverside });
  const [patient] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: PATIENT.firstName,
      lastName: PATIENT.lastName,
      dateOfBirth: PATIENT.dateOfBirth,
      email: 'marisol@example.test',
      doctorId: doctor!.id,
    })
    .returning({ id: patients.id });
  ids.patient = patient!.id;
  const appointment = async () => {
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: ids.patient, startsAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.appointment = await appointment();
  ids.otherAppointment = await appointment();
  ids.rollbackAppointment = await appointment();
  for (const [who, email] of [
    ['admin', 'admin@pathwell.demo'],
    ['staff', 'staff@pathwell.demo'],
    ['doctor', 'doctor@pathwell.demo'],
    ['otherDoctor', 'doctor.other@pathwell.demo'],
    ['admin2', 'admin2@pathwell.demo'],
  ] as const) {
    users_[who] = await signIn(t.app, email);
    // The demo data's notifications are cleared, so counts below are this file's alone.
    const cleared = await call('POST', '/api/notifications/clearall', who);
    expect(cleared.statusCode, cleared.body).toBe(200);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('the forms-completed notification', () => {
  let notificationId: string;

  it('comes when the last form of the appointment is submitted, once, and is heard after commit', async () => {
    const first = await createLink(ids.appointment);
    const second = await createLink(ids.appointment);
    const heard: StaffEvent[] = [];
    const heardByLakeside: StaffEvent[] = [];
    const unsubscribe = t.app.events.subscribe(users_.admin.id, [riverside], (event) => heard.push(event));
    const unsubscribeLakeside = t.app.events.subscribe(users_.admin2.id, [lakeside], (event) => heardByLakeside.push(event));
    try {
      const firstAnswer = await submit(first);
      expect(firstAnswer.statusCode, firstAnswer.body).toBe(201);
      expect(await notificationsOfAppointment(ids.appointment)).toEqual([]);
      expect(ofPatient(await bell('admin'))).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual([]);

      const key = randomUUID();
      const last = await submit(second, key);
      expect(last.statusCode, last.body).toBe(201);
      const rows = await notificationsOfAppointment(ids.appointment);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: 'formsCompleted', patientId: ids.patient });
      notificationId = rows[0]!.id;
      expect(await waitUntil(() => heard.length > 0)).toBe(true);
      expect(heard).toEqual([{ instanceId: riverside, kind: 'notification' }]);

      // The patient's retry with the same key is a replay: no second notification, no second event.
      const replay = await submit(second, key);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(await notificationsOfAppointment(ids.appointment)).toHaveLength(1);
      // A form added later to the same appointment and submitted: still one notification.
      const late = await createLink(ids.appointment);
      expect((await submit(late)).statusCode).toBe(201);
      expect(await notificationsOfAppointment(ids.appointment)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toHaveLength(1);
      expect(heardByLakeside).toEqual([]);
    } finally {
      unsubscribe();
      unsubscribeLakeside();
    }
  });

  it("the clinic's staff and admin see it unseen, with the patient's names", async () => {
    for (const who of ['admin', 'staff'] as const) {
      const list = await bell(who);
      expect(list.unseen).toBe(1);
      expect(ofPatient(list)).toEqual([
        {
          id: notificationId,
          kind: 'formsCompleted',
          createdAt: expect.any(String),
          patientId: ids.patient,
          patientFirstName: PATIENT.firstName,
          patientLastName: PATIENT.lastName,
          seen: false,
          notified: false,
          responseId: null,
          urgent: false,
        },
      ]);
      expect(list.data[0]!.id).toBe(notificationId);
    }
  });

  it("another clinic's user sees none, and cannot mark it", async () => {
    const list = await bell('admin2');
    expect(list.unseen).toBe(0);
    expect(list.data.some((item) => item.id === notificationId)).toBe(false);
    const marked = await call('POST', '/api/notifications/seen', 'admin2', { ids: [notificationId] });
    expect(marked.json()).toEqual({ marked: 0 });
  });

  it('a Doctor sees it only for their own patient', async () => {
    const other = await bell('otherDoctor');
    expect(other.unseen).toBe(0);
    expect(other.data.some((item) => item.id === notificationId)).toBe(false);
    expect((await call('POST', '/api/notifications/seen', 'otherDoctor', { ids: [notificationId] })).json()).toEqual({
      marked: 0,
    });
    const own = await bell('doctor');
    expect(own.unseen).toBe(1);
    expect(ofPatient(own).map((item) => item.id)).toEqual([notificationId]);
  });

  it('seen is per user: marking it seen clears it for that user only', async () => {
    const heard: StaffEvent[] = [];
    const unsubscribe = t.app.events.subscribe(users_.staff.id, [riverside], (event) => heard.push(event));
    try {
      const marked = await call('POST', '/api/notifications/seen', 'staff', { ids: [notificationId] });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toEqual({ marked: 1 });
      // The user's other tabs hear it.
      expect(await waitUntil(() => heard.length > 0)).toBe(true);
      expect(heard[0]).toMatchObject({ instanceId: riverside, kind: 'notification', userIds: [users_.staff.id] });
    } finally {
      unsubscribe();
    }
    const staff = await bell('staff');
    expect(staff.unseen).toBe(0);
    expect(ofPatient(staff)[0]).toMatchObject({ seen: true, notified: false });
    expect((await bell('admin')).unseen).toBe(1);
    expect((await bell('doctor')).unseen).toBe(1);
  });

  it('notified records the popup per user without marking it seen', async () => {
    const marked = await call('POST', '/api/notifications/notified', 'admin', { ids: [notificationId] });
    expect(marked.json()).toEqual({ marked: 1 });
    const admin = await bell('admin');
    expect(ofPatient(admin)[0]).toMatchObject({ seen: false, notified: true });
    expect(admin.unseen).toBe(1);
    expect(ofPatient(await bell('doctor'))[0]).toMatchObject({ notified: false });
    // Marking it again keeps the first time.
    expect((await call('POST', '/api/notifications/notified', 'admin', { ids: [notificationId] })).json()).toEqual({ marked: 1 });
    const bad = await call('POST', '/api/notifications/notified', 'admin', { ids: [] });
    expect(bad.statusCode).toBe(400);
  });

  it('clear all marks every unseen notification seen for that user', async () => {
    const cleared = await call('POST', '/api/notifications/clearall', 'admin');
    expect(cleared.json()).toEqual({ marked: 1 });
    const admin = await bell('admin');
    expect(admin.unseen).toBe(0);
    expect(ofPatient(admin)[0]).toMatchObject({ seen: true, notified: true });
    expect((await call('POST', '/api/notifications/clearall', 'admin')).json()).toEqual({ marked: 0 });
    expect((await bell('doctor')).unseen).toBe(1);
  });

  it('the paged list walks every notification, newest first', async () => {
    // One more notification for this patient, so there are at least two of this file's own.
    const link = await createLink(ids.otherAppointment);
    expect((await submit(link)).statusCode).toBe(201);
    const all = await bell('admin');
    expect(all.unseen).toBe(1);
    const collected: string[] = [];
    let total = -1;
    for (let pageNumber = 0; pageNumber < 20; pageNumber++) {
      const response = await call('GET', `/api/notifications/paged?pageNumber=${pageNumber}&pageSize=2&exactTotal=true`, 'admin');
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<NotificationPage>();
      expect(page.data.length).toBeLessThanOrEqual(2);
      expect(page.unseen).toBe(1);
      expect(page.totalExact).toBe(true);
      total = page.totalRecords;
      if (page.data.length === 0) break;
      collected.push(...page.data.map((item) => item.id));
    }
    expect(total).toBe(all.data.length);
    expect(collected).toEqual(all.data.map((item) => item.id));
    expect(collected.slice(0, 2)).toEqual(ofPatient(all).map((item) => item.id));
    expect(ofPatient(all)).toHaveLength(2);
    // A Doctor's pages hold only their own patients' notifications.
    const otherDoctor = await call('GET', '/api/notifications/paged?pageNumber=0&pageSize=10&exactTotal=true', 'otherDoctor');
    expect(otherDoctor.json<NotificationPage>()).toMatchObject({ totalRecords: 0, data: [] });
    const tooBig = await call('GET', '/api/notifications/paged?pageNumber=0&pageSize=1000', 'admin');
    expect(tooBig.statusCode).toBe(400);
    // The page names patients: opening it is in the activity log (the bell's refreshes are not).
    const viewed = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetType, 'notifications'), eq(activityLogs.action, 'Viewed')));
    expect(viewed.length).toBeGreaterThanOrEqual(3);
    expect(viewed.every((entry) => entry.area === 'Patient List')).toBe(true);
  });
});

describe('publishing is transactional', () => {
  const notifyIn = (commit: boolean) =>
    withSystemAccess(t.appDb, 'patient-link-token', async (tx) => {
      const created = await notifyIfAppointmentFormsComplete({ events: t.app.events } as never, tx, {
        instanceId: riverside,
        patientId: ids.patient,
        appointmentId: ids.rollbackAppointment,
      });
      expect(created).toBe(true);
      if (!commit) throw new Error('roll back');
    });

  it('a notification that rolls back is neither stored nor heard; committed, it is both', async () => {
    const heard: StaffEvent[] = [];
    const unsubscribe = t.app.events.subscribe(users_.admin.id, [riverside], (event) => heard.push(event));
    try {
      await expect(notifyIn(false)).rejects.toThrow('roll back');
      expect(await notificationsOfAppointment(ids.rollbackAppointment)).toEqual([]);
      expect(await waitUntil(() => heard.length > 0, 500)).toBe(false);

      await notifyIn(true);
      expect(await notificationsOfAppointment(ids.rollbackAppointment)).toHaveLength(1);
      expect(await waitUntil(() => heard.length > 0)).toBe(true);
      expect(heard).toEqual([{ instanceId: riverside, kind: 'notification' }]);
    } finally {
      unsubscribe();
    }
  });
});
