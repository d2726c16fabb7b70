import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { Pathway, PathwayEnrolment, PathwayRosterPage, PathwaySummary, PatientPathway } from '@pathwell/contracts/pathways';
import {
  activityLogs,
  appointments,
  formResponses,
  instances,
  managedItems,
  pathwayEnrolments,
  pathwayStepRuns,
  patients,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { importTestWording } from '../../../test/instrument-wording';

/** Pathways API (issue #13, decision 0041): building, enrolling, triggers and what each role may do. */
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
let ownPatient: string;
let otherDoctorsPatient: string;
let lakesidePatient: string;
let studyGroup: string;
let lakesideStudyGroup: string;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  // The pathways here ask for ODI: Riverside holds its licensed wording (decision 0061).
  await importTestWording(t.db, riverside, 2);
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const insert = async (instanceId: string, lastName: string, doctorId: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({
        instanceId,
        firstName: 'Ana',
        lastName,
        dateOfBirth: '1968-11-02',
        email: `${lastName.toLowerCase()}@example.test`,
        doctorId,
      })
      .returning({ id: patients.id });
    return row!.id;
  };
  ownPatient = await insert(riverside, 'Pathwayown', doctor!.id);
  otherDoctorsPatient = await insert(riverside, 'Pathwayother', null);
  lakesidePatient = await insert(lakeside, 'Pathwaylake', null);
  const group = async (instanceId: string, name: string) => {
    const [row] = await t.db
      .insert(managedItems)
      .values({ instanceId, listType: 'studygroups', name })
      .returning({ id: managedItems.id });
    return row!.id;
  };
  studyGroup = await group(riverside, 'Pathway test cohort');
  lakesideStudyGroup = await group(lakeside, 'Pathway test cohort');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, as: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: as ? tokens[as]!.headers : {},
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

const sixWeeks = {
  name: 'Test: ODI after injection',
  description: 'ODI at baseline and six weeks',
  trigger: 'manual',
  steps: [
    { dayOffset: 42, kind: 'pro', formCode: 2, reminderDays: [3, 7] },
    { dayOffset: 0, kind: 'pro', formCode: 2, reminderDays: [3, 7] },
    { dayOffset: 14, kind: 'education', messageEn: 'Keep walking every day.', messageEs: 'Siga caminando cada día.' },
    { dayOffset: 42, kind: 'task', messageEn: 'Call the patient about the result.' },
  ],
};

async function createPathway(payload: object = sixWeeks, as = 'admin') {
  const response = await call('POST', '/api/pathways', as, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Pathway>();
}

describe('building pathways', () => {
  it('creates a pathway with its steps in day order, reads it back and lists it for every role', async () => {
    const pathway = await createPathway();
    expect(pathway.steps.map((step) => [step.dayOffset, step.kind])).toEqual([
      [0, 'pro'],
      [14, 'education'],
      [42, 'pro'],
      [42, 'task'],
    ]);
    expect(pathway.steps[0]!.formTitle).toMatch(/Oswestry/);
    expect(pathway.steps[1]!.reminderDays).toEqual([]);
    expect(pathway.isExample).toBe(false);

    const options = await call('GET', '/api/pathways/options', 'doctor');
    expect(options.statusCode).toBe(200);
    const { procedures, studyGroups } = options.json<{ procedures: { name: string }[]; studyGroups: { id: string }[] }>();
    expect(procedures.map((item) => item.name)).toContain('Lumbar transforaminal epidural steroid injection');
    expect(studyGroups.map((item) => item.id)).toContain(studyGroup);

    const read = await call('GET', `/api/pathways/${pathway.id}`, 'staff');
    expect(read.statusCode).toBe(200);
    expect(read.json<Pathway>().steps).toHaveLength(4);

    for (const who of ['admin', 'doctor', 'staff']) {
      const list = await call('GET', '/api/pathways', who);
      expect(list.statusCode).toBe(200);
      const mine = list.json<PathwaySummary[]>().find((row) => row.id === pathway.id)!;
      expect(mine.stepCount).toBe(4);
      // The completion rate is for Admins (and System Managers).
      if (who === 'admin') expect(mine.dueRuns).toBe(0);
      else expect(mine.dueRuns).toBeNull();
    }
  });

  it('replaces the steps on update, and deletes', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: to edit' });
    const updated = await call('PUT', `/api/pathways/${pathway.id}`, 'admin', {
      ...sixWeeks,
      name: 'Test: edited',
      steps: [{ dayOffset: 7, kind: 'painJournal', reminderDays: [0, 2] }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const body = updated.json<Pathway>();
    expect(body.name).toBe('Test: edited');
    expect(body.steps).toHaveLength(1);
    // Day 0 is the request itself, not a reminder.
    expect(body.steps[0]!.reminderDays).toEqual([2]);

    expect((await call('DELETE', `/api/pathways/${pathway.id}`, 'admin')).statusCode).toBe(204);
    expect((await call('GET', `/api/pathways/${pathway.id}`, 'admin')).statusCode).toBe(404);
  });

  it('answers bad input with field errors', async () => {
    const bad = await call('POST', '/api/pathways', 'admin', {
      name: '',
      trigger: 'manual',
      steps: [
        { dayOffset: 731, kind: 'pro', formCode: 2 },
        { dayOffset: 1, kind: 'pro' },
        { dayOffset: 1, kind: 'task' },
        { dayOffset: 1, kind: 'pro', formCode: 16, reminderDays: [61] },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json<{ fields: Record<string, string> }>().fields;
    expect(fields).toMatchObject({
      name: 'nameRequired',
      'steps.0.dayOffset': 'invalid',
      'steps.1.formCode': 'required',
      'steps.2.messageEn': 'required',
      'steps.3.formCode': 'invalid',
      'steps.3.reminderDays.0': 'invalid',
    });
    const noItems = await call('POST', '/api/pathways', 'admin', { ...sixWeeks, trigger: 'cohort', triggerItemIds: [] });
    expect(noItems.statusCode).toBe(400);
    expect(noItems.json<{ fields: Record<string, string> }>().fields.triggerItemIds).toBe('required');
    // Another clinic's study group is not one of this clinic's.
    const foreign = await call('POST', '/api/pathways', 'admin', {
      ...sixWeeks,
      trigger: 'cohort',
      triggerItemIds: [lakesideStudyGroup],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ fields: Record<string, string> }>().fields.triggerItemIds).toBe('invalid');
    const notUuid = await call('GET', '/api/pathways/not-an-id', 'admin');
    expect(notUuid.statusCode).toBe(400);
  });

  it('keeps building to Admins, each clinic to its own, and everything behind sign-in', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: guarded' });
    expect((await call('POST', '/api/pathways', 'staff', sixWeeks)).statusCode).toBe(403);
    expect((await call('PUT', `/api/pathways/${pathway.id}`, 'doctor', sixWeeks)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/pathways/${pathway.id}`, 'staff')).statusCode).toBe(403);
    expect((await call('GET', `/api/pathways/${pathway.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('PUT', `/api/pathways/${pathway.id}`, 'admin2', sixWeeks)).statusCode).toBe(404);
    expect((await call('GET', '/api/pathways', 'admin2')).json<PathwaySummary[]>().some((row) => row.id === pathway.id)).toBe(
      false,
    );
    expect((await call('GET', '/api/pathways', null)).statusCode).toBe(401);
    expect((await call('POST', `/api/pathways/${pathway.id}/enrol`, null, { patientId: ownPatient })).statusCode).toBe(401);
  });
});

describe('enrolling', () => {
  it('schedules every step from the anchor, shows the next PRO date and refuses a second active enrolment', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: enrol' });
    const anchorAt = '2030-03-01T15:00:00.000Z';
    const response = await call('POST', `/api/pathways/${pathway.id}/enrol`, 'doctor', { patientId: ownPatient, anchorAt });
    expect(response.statusCode, response.body).toBe(201);
    const enrolment = response.json<PathwayEnrolment>();
    expect(enrolment.status).toBe('active');
    expect(enrolment.steps.map((step) => [step.dueAt, step.status])).toEqual([
      ['2030-03-01T15:00:00.000Z', 'pending'],
      ['2030-03-15T15:00:00.000Z', 'pending'],
      ['2030-04-12T15:00:00.000Z', 'pending'],
      ['2030-04-12T15:00:00.000Z', 'pending'],
    ]);
    const again = await call('POST', `/api/pathways/${pathway.id}/enrol`, 'staff', { patientId: ownPatient });
    expect(again.statusCode).toBe(409);

    const list = await call('GET', `/api/patients/${ownPatient}/pathways`, 'staff');
    expect(list.statusCode).toBe(200);
    const mine = list.json<PatientPathway[]>().find((row) => row.id === enrolment.id)!;
    expect(mine.nextProAt).toBe('2030-03-01T15:00:00.000Z');
    expect(mine.nextStep?.kind).toBe('pro');
    expect(mine.totalSteps).toBe(4);

    const detail = await call('GET', `/api/pathways/enrolments/${enrolment.id}`, 'doctor');
    expect(detail.statusCode).toBe(200);
    expect(detail.json<PathwayEnrolment>().patientName).toBe('Ana Pathwayown');

    const stopped = await call('POST', `/api/pathways/enrolments/${enrolment.id}/stop`, 'staff');
    expect(stopped.statusCode).toBe(200);
    const body = stopped.json<PathwayEnrolment>();
    expect(body.status).toBe('stopped');
    expect(body.steps.every((step) => step.status === 'skipped' && step.skipReason === 'stopped')).toBe(true);
    expect((await call('POST', `/api/pathways/enrolments/${enrolment.id}/stop`, 'staff')).statusCode).toBe(409);
    // Stopped, the patient may be enrolled again.
    expect((await call('POST', `/api/pathways/${pathway.id}/enrol`, 'staff', { patientId: ownPatient })).statusCode).toBe(201);
  });

  it('keeps a Doctor to their own patients and each clinic to its own, and checks the input', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: scope' });
    expect(
      (await call('POST', `/api/pathways/${pathway.id}/enrol`, 'doctor', { patientId: otherDoctorsPatient })).statusCode,
    ).toBe(404);
    expect((await call('POST', `/api/pathways/${pathway.id}/enrol`, 'admin', { patientId: lakesidePatient })).statusCode).toBe(
      404,
    );
    expect((await call('POST', `/api/pathways/${pathway.id}/enrol`, 'admin2', { patientId: lakesidePatient })).statusCode).toBe(
      404,
    );
    const bad = await call('POST', `/api/pathways/${pathway.id}/enrol`, 'admin', { patientId: 'x', anchorAt: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: Record<string, string> }>().fields).sort()).toEqual(['anchorAt', 'patientId']);

    const enrolled = await call('POST', `/api/pathways/${pathway.id}/enrol`, 'admin', { patientId: otherDoctorsPatient });
    const id = enrolled.json<PathwayEnrolment>().id;
    expect((await call('GET', `/api/pathways/enrolments/${id}`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/pathways/enrolments/${id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('POST', `/api/pathways/enrolments/${id}/stop`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${otherDoctorsPatient}/pathways`, 'doctor')).statusCode).toBe(404);
    // A task not raised yet cannot be marked done.
    const task = enrolled.json<PathwayEnrolment>().steps.find((step) => step.kind === 'task')!;
    expect((await call('POST', `/api/pathways/steprun/${task.id}/done`, 'staff')).statusCode).toBe(409);
    expect((await call('POST', `/api/pathways/steprun/${task.id}/done`, 'admin2')).statusCode).toBe(404);
  });
});

describe('triggers', () => {
  it('enrols on a cohort assignment and on the first completed visit, once', async () => {
    const cohort = await createPathway({ ...sixWeeks, name: 'Test: cohort', trigger: 'cohort', triggerItemIds: [studyGroup] });
    const firstVisit = await createPathway({ ...sixWeeks, name: 'Test: first visit', trigger: 'firstVisit' });
    const [patient] = await t.db
      .insert(patients)
      .values({ instanceId: riverside, firstName: 'Ana', lastName: 'Triggered', dateOfBirth: '1970-01-01' })
      .returning({ id: patients.id });
    const visit = async (hoursAgo: number) => {
      const [row] = await t.db
        .insert(appointments)
        .values({
          instanceId: riverside,
          patientId: patient!.id,
          reason: 'new_patient',
          startsAt: new Date(Date.now() - hoursAgo * 3_600_000),
          status: AppointmentStatus.Checking_In,
        })
        .returning({ id: appointments.id });
      return row!.id;
    };
    const first = await visit(48);
    const second = await visit(2);
    const complete = (id: string) =>
      call('PATCH', `/api/patientappointments/${id}/status`, 'staff', { status: AppointmentStatus.Completed });
    expect((await complete(first)).statusCode).toBe(200);
    const enrolled = await t.db
      .select()
      .from(pathwayEnrolments)
      .where(and(eq(pathwayEnrolments.patientId, patient!.id), eq(pathwayEnrolments.pathwayId, firstVisit.id)));
    expect(enrolled).toHaveLength(1);
    expect(enrolled[0]!.startedBy).toBe('firstVisit');
    // Stopped, then a second visit completes: it is not the first, nothing starts again.
    await call('POST', `/api/pathways/enrolments/${enrolled[0]!.id}/stop`, 'staff');
    expect((await complete(second)).statusCode).toBe(200);
    const after = await t.db.select().from(pathwayEnrolments).where(eq(pathwayEnrolments.patientId, patient!.id));
    expect(after.filter((row) => row.pathwayId === firstVisit.id)).toHaveLength(1);

    const assigned = await call('PUT', `/api/patients/${patient!.id}/studygroups`, 'staff', { studyGroupIds: [studyGroup] });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const cohortRuns = await t.db
      .select({ dueAt: pathwayStepRuns.dueAt })
      .from(pathwayStepRuns)
      .innerJoin(pathwayEnrolments, eq(pathwayEnrolments.id, pathwayStepRuns.enrolmentId))
      .where(and(eq(pathwayEnrolments.patientId, patient!.id), eq(pathwayEnrolments.pathwayId, cohort.id)));
    expect(cohortRuns).toHaveLength(4);
  });
});

describe('forms whose licensed wording is not loaded (issue #24 §1, decision 0061)', () => {
  it('a pathway cannot ask for NDI in a clinic without its wording: 400 on the step', async () => {
    const refused = await call('POST', '/api/pathways', 'admin', {
      ...sixWeeks,
      name: 'Neck follow-up',
      steps: [
        { dayOffset: 0, kind: 'pro', formCode: 11 },
        { dayOffset: 14, kind: 'pro', formCode: 3 },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      messageKey: 'formWordingNotLoaded',
      fields: { 'steps.1.formCode': 'formWordingNotLoaded' },
    });
  });
});

describe('a PRO answered without its wording (issue #24 §1, decision 0067)', () => {
  it('shows no score and says why on the roster and the timeline, and is no baseline for the later score', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: unscored baseline' });
    const anchorAt = new Date(Date.now() - 60_000).toISOString();
    const enrolled = await call('POST', `/api/pathways/${pathway.id}/enrol`, 'staff', { patientId: ownPatient, anchorAt });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    const enrolmentId = enrolled.json<PathwayEnrolment>().id;
    const proRuns = enrolled.json<PathwayEnrolment>().steps.filter((step) => step.kind === 'pro');
    const complete = async (day: number, values: Partial<typeof formResponses.$inferInsert>) => {
      const run = proRuns.find((step) => step.dayOffset === day)!;
      const [response] = await t.db
        .insert(formResponses)
        .values({
          instanceId: riverside,
          patientId: ownPatient,
          formCode: 2,
          version: 'ODI 2.1a',
          language: 'en',
          answers: { s1: 3 },
          idempotencyKey: randomUUID(),
          submittedAt: new Date(Date.now() + day * 1000),
          ...values,
        })
        .returning({ id: formResponses.id });
      await t.db
        .update(pathwayStepRuns)
        .set({ status: 'completed', sentAt: new Date(), completedAt: new Date(), formResponseId: response!.id })
        .where(eq(pathwayStepRuns.id, run.id));
    };
    // Day 0 on neutral labels, stored as migration 0029 leaves it; day 42 on the clinic's wording.
    await complete(0, { scores: {}, headlineScore: null, notScored: 'wordingNotLoaded' });
    await complete(42, { scores: { odiPercent: 30 }, headlineScore: 30 });

    const roster = (await call('GET', `/api/pathways/${pathway.id}/roster`, 'admin')).json<PathwayRosterPage>();
    const [row] = roster.data;
    const proSteps = row!.steps.filter((step) => step.kind === 'pro');
    expect(proSteps.map((step) => [step.dayOffset, step.headlineScore, step.notScored])).toEqual([
      [0, null, 'wordingNotLoaded'],
      [42, 30, undefined],
    ]);
    const detail = (await call('GET', `/api/pathways/enrolments/${enrolmentId}`, 'staff')).json<PathwayEnrolment>();
    const scores = detail.steps.filter((step) => step.kind === 'pro').map((step) => step.score);
    expect(scores[0]).toMatchObject({ headlineScore: null, notScored: 'wordingNotLoaded', baseline: null, change: null });
    // The unscored day 0 is no baseline: six weeks is the first score, with nothing to compare against.
    expect(scores[1]).toMatchObject({ headlineScore: 30, baseline: null, isBaseline: true, change: null });
    expect(scores[1]!.notScored).toBeUndefined();
  });
});

describe("a pathway's roster (issue #24 §5)", () => {
  it("lists the enrolled patients with each step's result and score, paged, and records the view", async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: roster' });
    const anchorAt = new Date(Date.now() - 60_000).toISOString();
    for (const patientId of [ownPatient, otherDoctorsPatient]) {
      expect((await call('POST', `/api/pathways/${pathway.id}/enrol`, 'staff', { patientId, anchorAt })).statusCode).toBe(201);
    }
    // The own patient's baseline ODI answered, scoring 42.
    const [enrolment] = await t.db
      .select()
      .from(pathwayEnrolments)
      .where(and(eq(pathwayEnrolments.pathwayId, pathway.id), eq(pathwayEnrolments.patientId, ownPatient)));
    const runs = await t.db.select().from(pathwayStepRuns).where(eq(pathwayStepRuns.enrolmentId, enrolment!.id));
    const baseline = runs.find((run) => run.dueAt.getTime() === new Date(anchorAt).getTime())!;
    const [response] = await t.db
      .insert(formResponses)
      .values({
        instanceId: riverside,
        patientId: ownPatient,
        formCode: 2,
        version: 'ODI 2.1a',
        language: 'en',
        answers: {},
        scores: { odiPercent: 42 },
        headlineScore: 42,
        idempotencyKey: randomUUID(),
        submittedAt: new Date(),
      })
      .returning({ id: formResponses.id });
    await t.db
      .update(pathwayStepRuns)
      .set({ status: 'completed', sentAt: new Date(), completedAt: new Date(), formResponseId: response!.id })
      .where(eq(pathwayStepRuns.id, baseline.id));

    const roster = await call('GET', `/api/pathways/${pathway.id}/roster?pageSize=1`, 'admin');
    expect(roster.statusCode, roster.body).toBe(200);
    const first = roster.json<PathwayRosterPage>();
    expect(first.totalRecords).toBe(2);
    expect(first.data).toHaveLength(1);
    const second = (
      await call('GET', `/api/pathways/${pathway.id}/roster?pageSize=1&pageNumber=1`, 'admin')
    ).json<PathwayRosterPage>();
    const all = [...first.data, ...second.data];
    expect(all.map((row) => row.patientName).sort()).toEqual(['Ana Pathwayother', 'Ana Pathwayown']);
    const own = all.find((row) => row.patientId === ownPatient)!;
    expect(own.steps.map((step) => [step.dayOffset, step.kind, step.status])).toEqual([
      [0, 'pro', 'completed'],
      [14, 'education', 'pending'],
      [42, 'pro', 'pending'],
      [42, 'task', 'pending'],
    ]);
    expect(own.steps[0]).toMatchObject({ formTitle: expect.stringMatching(/Oswestry/), headlineScore: 42 });
    expect(own.steps[1]!.headlineScore).toBeNull();

    const views = await t.db
      .select({ description: activityLogs.description })
      .from(activityLogs)
      .where(
        and(eq(activityLogs.instanceId, riverside), eq(activityLogs.targetId, pathway.id), eq(activityLogs.action, 'Viewed')),
      );
    expect(views.map((row) => row.description)).toContain(
      'Viewed the roster of pathway "Test: roster" (1 of 2 patients, page 1)',
    );

    // A Doctor sees their own patients only; Staff see all; the status filter narrows.
    const doctors = (await call('GET', `/api/pathways/${pathway.id}/roster`, 'doctor')).json<PathwayRosterPage>();
    expect(doctors.data.map((row) => row.patientId)).toEqual([ownPatient]);
    expect(doctors.totalRecords).toBe(1);
    expect((await call('GET', `/api/pathways/${pathway.id}/roster`, 'staff')).json<PathwayRosterPage>().totalRecords).toBe(2);
    expect(
      (await call('GET', `/api/pathways/${pathway.id}/roster?status=completed`, 'staff')).json<PathwayRosterPage>().totalRecords,
    ).toBe(0);
  });

  it('answers 400 with field errors, 404 for another clinic, 403 outside the clinic', async () => {
    const pathway = await createPathway({ ...sixWeeks, name: 'Test: roster checks' });
    const bad = await call('GET', `/api/pathways/${pathway.id}/roster?pageSize=0&status=paused`, 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { pageSize: 'numberOutOfRange', status: 'invalid' } });
    expect((await call('GET', '/api/pathways/not-an-id/roster', 'admin')).statusCode).toBe(400);
    expect((await call('GET', `/api/pathways/${pathway.id}/roster`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/pathways/${pathway.id}/roster`, null)).statusCode).toBe(401);
    // A clinic user naming a clinic they do not belong to is refused before any data is read.
    const outside = await t.app.inject({
      method: 'GET',
      url: `/api/pathways/${pathway.id}/roster`,
      headers: { ...tokens.staff!.headers, clinicid: lakeside },
      remoteAddress: nextIp(),
    });
    expect(outside.statusCode).toBe(403);
  });
});
