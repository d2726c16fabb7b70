import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicMdy } from '@pathwell/contracts/clinic-time';
import type { CriticalFinding } from '@pathwell/contracts/critical-findings';
import type { PatientFormResponses } from '@pathwell/contracts/form-responses';
import type { AppointmentDashboard, CreatedIntake } from '@pathwell/contracts/intake';
import type { NotificationList } from '@pathwell/contracts/messaging';
import type { CreatedPatientLink, FormResponseDetail } from '@pathwell/contracts/patient-links';
import { RoleCode } from '@pathwell/contracts/roles';
import {
  activityLogs,
  appointments,
  criticalFindings,
  formResponses,
  instances,
  notifications,
  patients,
  userInstances,
  users,
} from '../../db/schema';
import type { StaffEvent } from '../events/event-hub';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
type Who = 'admin' | 'staff' | 'doctor' | 'otherDoctor' | 'lakesideAdmin' | 'manager';
const users_ = {} as Record<Who, { headers: Record<string, string>; id: string }>;
const ids = {} as { patient: string; appointment: string; doctor: string };
const ZONE = 'America/Chicago';
const PATIENT = {
  firstName: 'Inés',
  lastName: 'Valdivia',
  dateOfBirth: '1979-03-15',
  verify: { lastName: 'Valdivia', dateOfBirth: '03/15/1979' },
};

const call = (method: 'GET' | 'POST', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: users_[as].headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST', url: string, payload?: unknown, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

async function verified(token: string) {
  const response = await open('POST', `/api/patient-links/${token}/verify`, PATIENT.verify);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}

async function phq9Link() {
  const response = await call('POST', '/api/patient-links', 'staff', {
    patientId: ids.patient,
    appointmentId: ids.appointment,
    formCode: 11,
    language: 'en',
  });
  expect(response.statusCode, response.body).toBe(201);
  const { token } = response.json<CreatedPatientLink>();
  return { token, access: await verified(token) };
}

/** Items 1–8 answered 1 (total 8 + item 9: "Mild", the case the issue saw green). */
const phq9 = (item9: number) => ({ q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: item9, q10: 0 });

const submitLink = (link: { token: string; access: string }, item9: number, idempotencyKey: string = randomUUID()) =>
  open('POST', `/api/patient-links/${link.token}/submit`, { idempotencyKey, language: 'en', answers: phq9(item9) }, link.access);

const bell = async (as: Who) => {
  const response = await call('GET', '/api/notifications', as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<NotificationList>().data.filter((item) => item.patientId === ids.patient);
};

const findingsOf = (responseId: string) =>
  t.db
    .select()
    .from(criticalFindings)
    .where(and(eq(criticalFindings.instanceId, riverside), eq(criticalFindings.responseId, responseId)));

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
  await setInstanceSetting(t.db, riverside, 'timeZoneId', ZONE);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  ids.doctor = doctor!.id;
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'doctor.critical@pathwell.demo',
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
      email: 'ines.valdivia@example.test',
      doctorId: doctor!.id,
    })
    .returning({ id: patients.id });
  ids.patient = patient!.id;
  const [appointment] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId: ids.patient, doctorId: doctor!.id, startsAt: new Date(Date.now() + 86_400_000) })
    .returning({ id: appointments.id });
  ids.appointment = appointment!.id;
  for (const [who, email] of [
    ['admin', 'admin@pathwell.demo'],
    ['staff', 'staff@pathwell.demo'],
    ['doctor', 'doctor@pathwell.demo'],
    ['otherDoctor', 'doctor.critical@pathwell.demo'],
    ['lakesideAdmin', 'admin2@pathwell.demo'],
    ['manager', 'manager@pathwell.demo'],
  ] as const) {
    users_[who] = await signIn(t.app, email);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('stored findings', () => {
  it("match the stored answers: every PHQ-9 with item 9 above 0 (the demo's included) has one, no other response has any", async () => {
    const positives = await t.db
      .select({ id: formResponses.id })
      .from(formResponses)
      .where(and(eq(formResponses.formCode, 11), sql`(${formResponses.answers}->>'q9')::numeric >= 1`));
    const flagged = await t.db.select({ responseId: criticalFindings.responseId }).from(criticalFindings);
    expect(positives.length).toBeGreaterThan(0);
    expect(flagged.map((row) => row.responseId).sort()).toEqual(positives.map((row) => row.id).sort());
  });
});

describe('a PHQ-9 with item 9 answered above 0 through a form link', () => {
  let responseId: string;
  let findingId: string;
  const submitted: { key?: string; link?: { token: string; access: string } } = {};

  it('is stored as a critical finding, tells the patient to show crisis resources, and is heard at once', async () => {
    const link = await phq9Link();
    const heard: StaffEvent[] = [];
    const unsubscribe = t.app.events.subscribe(users_.admin.id, [riverside], (event) => heard.push(event));
    try {
      submitted.key = randomUUID();
      submitted.link = link;
      const response = await submitLink(link, 1, submitted.key);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json<{ responseId: string; crisisResources: boolean }>();
      expect(body.crisisResources).toBe(true);
      responseId = body.responseId;
      const rows = await findingsOf(responseId);
      expect(rows).toEqual([
        expect.objectContaining({
          patientId: ids.patient,
          appointmentId: ids.appointment,
          formCode: 11,
          ruleKey: 'phq9-item9',
          itemId: 'q9',
          answer: 1,
          acknowledgedAt: null,
          acknowledgedBy: null,
        }),
      ]);
      findingId = rows[0]!.id;
      const [notification] = await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.instanceId, riverside), eq(notifications.kind, 'criticalFinding')));
      expect(notification).toMatchObject({ patientId: ids.patient, responseId });
      expect(await waitUntil(() => heard.length > 0)).toBe(true);
      expect(heard[0]).toEqual({ instanceId: riverside, kind: 'notification' });
    } finally {
      unsubscribe();
    }
  });

  it('a retry with the same key answers as the first did, with no second finding or notification', async () => {
    const replay = await submitLink(submitted.link!, 1, submitted.key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({ responseId, crisisResources: true });
    expect(await findingsOf(responseId)).toHaveLength(1);
    const rows = await t.db.select().from(notifications).where(eq(notifications.kind, 'criticalFinding'));
    expect(rows).toHaveLength(1);
  });

  it("reaches the patient's Doctor and the clinic's Admins as an urgent notification, not Staff or another Doctor", async () => {
    for (const who of ['admin', 'doctor'] as const) {
      const items = (await bell(who)).filter((item) => item.kind === 'criticalFinding');
      expect(items, who).toEqual([
        expect.objectContaining({ kind: 'criticalFinding', responseId, urgent: true, seen: false, patientLastName: 'Valdivia' }),
      ]);
    }
    for (const who of ['staff', 'otherDoctor'] as const) {
      expect(
        (await bell(who)).filter((item) => item.kind === 'criticalFinding'),
        who,
      ).toEqual([]);
    }
    // The other notifications keep their shape: not urgent, no response.
    const formsCompleted = (await bell('staff')).find((item) => item.kind === 'formsCompleted');
    expect(formsCompleted).toMatchObject({ urgent: false, responseId: null });
  });

  it('is on the response, the patient dashboard list and the appointment dashboard row, open', async () => {
    const detail = await call('GET', `/api/formresponses/${responseId}`, 'staff');
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<FormResponseDetail>().criticalFindings).toEqual([
      expect.objectContaining({
        id: findingId,
        ruleKey: 'phq9-item9',
        answer: 1,
        acknowledgedAt: null,
        acknowledgedByName: null,
      }),
    ]);
    const list = await call('GET', `/api/patients/${ids.patient}/formresponses`, 'doctor');
    const summary = list.json<PatientFormResponses>().data.find((item) => item.id === responseId);
    expect(summary?.criticalFindings.map((finding) => finding.id)).toEqual([findingId]);
    const [visit] = await t.db.select().from(appointments).where(eq(appointments.id, ids.appointment));
    const dashboard = await call('POST', '/api/patients/appointmentdashboardinfo', 'staff', {
      date: clinicMdy(visit!.startsAt, ZONE),
    });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const row = dashboard.json<AppointmentDashboard>().rows.find((entry) => entry.appointmentId === ids.appointment);
    expect(row?.criticalFindings.map((finding) => finding.id)).toEqual([findingId]);
  });

  it('acknowledging answers 400 for a malformed id, 403 to Staff and System Managers, 404 for another clinic or Doctor', async () => {
    const bad = await call('POST', '/api/criticalfindings/not-a-uuid/acknowledge', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: Record<string, string> }>().fields).toHaveProperty('id');
    for (const who of ['staff', 'manager'] as const) {
      expect((await call('POST', `/api/criticalfindings/${findingId}/acknowledge`, who)).statusCode, who).toBe(403);
    }
    expect((await call('POST', `/api/criticalfindings/${findingId}/acknowledge`, 'lakesideAdmin')).statusCode).toBe(404);
    expect((await call('POST', `/api/criticalfindings/${findingId}/acknowledge`, 'otherDoctor')).statusCode).toBe(404);
    expect((await call('POST', `/api/criticalfindings/${randomUUID()}/acknowledge`, 'admin')).statusCode).toBe(404);
    const [row] = await findingsOf(responseId);
    expect(row!.acknowledgedAt).toBeNull();
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, findingId));
    expect(logs).toEqual([]);
  });

  it("the patient's Doctor acknowledges it: who and when are kept and logged, and the red turns off everywhere", async () => {
    const heard: StaffEvent[] = [];
    const unsubscribe = t.app.events.subscribe(users_.admin.id, [riverside], (event) => heard.push(event));
    let acknowledged: CriticalFinding;
    try {
      const response = await call('POST', `/api/criticalfindings/${findingId}/acknowledge`, 'doctor');
      expect(response.statusCode, response.body).toBe(200);
      acknowledged = response.json<CriticalFinding>();
      expect(acknowledged).toMatchObject({ id: findingId, acknowledgedByName: expect.stringMatching(/\S/) });
      expect(acknowledged.acknowledgedAt).not.toBeNull();
      expect(await waitUntil(() => heard.length > 0)).toBe(true);
    } finally {
      unsubscribe();
    }
    const [row] = await findingsOf(responseId);
    expect(row!.acknowledgedBy).toBe(ids.doctor);
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, findingId));
    expect(logs).toEqual([
      expect.objectContaining({
        area: 'Form Submission',
        action: 'Updated',
        targetType: 'critical finding',
        actorUserId: ids.doctor,
      }),
    ]);
    // An Admin acknowledging afterwards changes nothing: the first acknowledgement stands, logged once.
    const again = await call('POST', `/api/criticalfindings/${findingId}/acknowledge`, 'admin');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<CriticalFinding>()).toEqual(acknowledged);
    expect(await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, findingId))).toHaveLength(1);
    const item = (await bell('admin')).find((entry) => entry.kind === 'criticalFinding');
    expect(item?.urgent).toBe(false);
    const detail = await call('GET', `/api/formresponses/${responseId}`, 'admin');
    expect(detail.json<FormResponseDetail>().criticalFindings[0]).toEqual(acknowledged);
  });

  it('item 9 answered "Not at all" raises nothing and shows no crisis resources', async () => {
    const before = await t.db.select().from(criticalFindings);
    const response = await submitLink(await phq9Link(), 0);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ crisisResources: false });
    expect(await t.db.select().from(criticalFindings)).toHaveLength(before.length);
    expect(await t.db.select().from(notifications).where(eq(notifications.kind, 'criticalFinding'))).toHaveLength(1);
  });
});

describe('a PHQ-9 with item 9 answered above 0 in the intake', () => {
  it('raises the same finding and notification, and the patient is shown crisis resources', async () => {
    const created = await call('POST', '/api/patients/intake', 'staff', {
      patientId: ids.patient,
      appointmentId: ids.appointment,
      steps: [6],
      formCodes: [11],
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = new URL(created.json<CreatedIntake>().url).pathname.split('/')[3]!;
    const access = await verified(token);
    const response = await open(
      'POST',
      `/api/intake/${token}/forms/pro-11/submit`,
      { idempotencyKey: randomUUID(), language: 'es', answers: phq9(3) },
      access,
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ responseId: string; crisisResources: boolean }>();
    expect(body.crisisResources).toBe(true);
    expect(await findingsOf(body.responseId)).toEqual([
      expect.objectContaining({ ruleKey: 'phq9-item9', answer: 3, appointmentId: ids.appointment }),
    ]);
    const urgent = (await bell('doctor')).filter((item) => item.kind === 'criticalFinding' && item.urgent);
    expect(urgent.map((item) => item.responseId)).toEqual([body.responseId]);
    // Row-level security: the other clinic's connection sees none of it.
    expect(lakeside).not.toBe(riverside);
    const lakesideBell = await call('GET', '/api/notifications', 'lakesideAdmin');
    expect(lakesideBell.json<NotificationList>().data.filter((item) => item.kind === 'criticalFinding')).toEqual([]);
  });
});
