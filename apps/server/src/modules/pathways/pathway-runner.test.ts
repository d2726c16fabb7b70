import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pathway, PathwayEnrolment, PathwaySummary } from '@pathwell/contracts/pathways';
import {
  activityLogs,
  formResponses,
  instances,
  instrumentWordings,
  notifications,
  outboxMessages,
  painEntries,
  patientLinks,
  patients,
  pathwayStepRuns,
} from '../../db/schema';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { createMailer } from '../outbox/providers';
import { clinicTimeZone } from '../settings/settings.service';
import { createTestApp, latestEmailTo, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { runDuePathwaySteps, type PathwaySweepDeps } from './pathway-runner';
import { importTestWording } from '../../../test/instrument-wording';

/** The pathway sweep over simulated time (decision 0041): the clock is a parameter, nothing waits. */
let t: TestApp;
let deps: PathwaySweepDeps;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const DAY = 86_400_000;
/** Every enrolment of this file counts from here; the sweep is run at anchor + n days. */
const anchor = new Date(Date.now() + 60_000);
const at = (days: number, hours = 1) => new Date(anchor.getTime() + days * DAY + hours * 3_600_000);

const call = (method: 'GET' | 'POST', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

async function patient(instanceId: string, lastName: string, email: string | null, values: object = {}) {
  const [row] = await t.db
    .insert(patients)
    .values({ instanceId, firstName: 'Rosa', lastName, dateOfBirth: '1961-04-09', email, ...values })
    .returning({ id: patients.id });
  return row!.id;
}

async function pathway(as: string, payload: object) {
  const response = await call('POST', '/api/pathways', as, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Pathway>();
}

async function enrol(as: string, pathwayId: string, patientId: string) {
  const response = await call('POST', `/api/pathways/${pathwayId}/enrol`, as, { patientId, anchorAt: anchor.toISOString() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PathwayEnrolment>();
}

const detail = async (enrolmentId: string, as = 'staff') =>
  (await call('GET', `/api/pathways/enrolments/${enrolmentId}`, as)).json<PathwayEnrolment>();

async function emailsTo(recipient: string) {
  return t.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.recipient, recipient))
    .orderBy(desc(outboxMessages.createdAt));
}

/** A submitted ODI through the run's link, as the patient page would store it. */
async function answer(runId: string, headlineScore: number, submittedAt: Date) {
  const [run] = await t.db.select().from(pathwayStepRuns).where(eq(pathwayStepRuns.id, runId));
  const [link] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, run!.linkId!));
  await t.db.insert(formResponses).values({
    instanceId: link!.instanceId,
    patientId: link!.patientId,
    linkId: link!.id,
    formCode: 2,
    version: 'ODI 2.1a',
    language: 'en',
    answers: {},
    scores: { odiPercent: headlineScore },
    headlineScore,
    idempotencyKey: randomUUID(),
    submittedAt,
  });
  await t.db.update(patientLinks).set({ completedAt: submittedAt }).where(eq(patientLinks.id, link!.id));
}

const odiPlan = {
  name: 'Runner: lumbar ESI',
  trigger: 'manual',
  steps: [
    { dayOffset: 0, kind: 'pro', formCode: 2, reminderDays: [3, 7] },
    { dayOffset: 14, kind: 'education', messageEn: 'Keep walking every day.', messageEs: 'Siga caminando cada día.' },
    { dayOffset: 42, kind: 'pro', formCode: 2, reminderDays: [3, 7] },
    { dayOffset: 42, kind: 'task', messageEn: 'Call the patient about the six-week result.' },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  deps = { config: t.config, mailer: createMailer(undefined, 'test@pathwell.test'), jobs: t.app.jobs, events: t.app.events };
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const clinic of [riverside, lakeside]) await setInstanceSetting(t.db, clinic, 'enableEmail', 'true');
  // The pathways ask for ODI: both clinics hold its licensed wording (decision 0061).
  for (const clinic of [riverside, lakeside]) await importTestWording(t.db, clinic, 2);
  for (const who of ['admin', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

describe('the pathway sweep over simulated time', () => {
  it('sends, reminds, completes on an answer, sends education, raises the task, misses the unanswered PRO, in this clinic only', async () => {
    const plan = await pathway('admin', odiPlan);
    const rosa = await patient(riverside, 'Runner', 'rosa.runner@example.test');
    const enrolment = await enrol('staff', plan.id, rosa);
    const lakePlan = await pathway('admin2', { ...odiPlan, name: 'Runner: Lakeside' });
    const lakePatient = await patient(lakeside, 'Runner', 'rosa.lake@example.test');
    const lakeEnrolment = await enrol('admin2', lakePlan.id, lakePatient);
    const [baselineRun, educationRun, sixWeekRun, taskRun] = enrolment.steps;

    // Before the anchor nothing is due.
    await runDuePathwaySteps(t.appDb, deps, new Date(anchor.getTime() - DAY));
    expect(await emailsTo('rosa.runner@example.test')).toHaveLength(0);

    // Day 0: the baseline ODI goes out with a link of its own.
    await runDuePathwaySteps(t.appDb, deps, at(0));
    const first = await latestEmailTo(t.db, 'rosa.runner@example.test');
    expect(first.template).toBe('pathway-pro');
    expect(first.body).toContain('Oswestry');
    expect(first.body).toMatch(/\/patients\/odi\/[A-Za-z0-9_-]{43}/);
    let view = await detail(enrolment.id);
    expect(view.steps[0]!.status).toBe('sent');
    // The other clinic's patient got their own request, on their own clinic's link.
    const lake = await latestEmailTo(t.db, 'rosa.lake@example.test');
    expect(lake.template).toBe('pathway-pro');
    const [lakeRun] = await t.db.select().from(pathwayStepRuns).where(eq(pathwayStepRuns.id, lakeEnrolment.steps[0]!.id));
    const [lakeLink] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, lakeRun!.linkId!));
    expect(lakeLink!.instanceId).toBe(lakeside);

    // The same sweep again sends nothing more.
    await runDuePathwaySteps(t.appDb, deps, at(0, 2));
    expect(await emailsTo('rosa.runner@example.test')).toHaveLength(1);

    // Day 3 and day 7: reminders with a fresh address for the same link.
    await runDuePathwaySteps(t.appDb, deps, at(3));
    const reminder = await latestEmailTo(t.db, 'rosa.runner@example.test');
    expect(reminder.template).toBe('pathway-reminder');
    expect(reminder.body).toMatch(/reminder/i);
    expect(reminder.body).not.toBe(first.body);
    await runDuePathwaySteps(t.appDb, deps, at(7));
    view = await detail(enrolment.id);
    expect(view.steps[0]!.remindersSent).toBe(2);
    expect(await emailsTo('rosa.runner@example.test')).toHaveLength(3);

    // Rosa answers on day 8: the next sweep records it, with the response.
    await answer(baselineRun!.id, 44, at(8));
    await runDuePathwaySteps(t.appDb, deps, at(8, 3));
    view = await detail(enrolment.id);
    expect(view.steps[0]!.status).toBe('completed');
    expect(view.steps[0]!.score).toMatchObject({ headlineScore: 44, isBaseline: true, change: null });

    // Day 14: the education message, done once queued.
    await runDuePathwaySteps(t.appDb, deps, at(14));
    const education = await latestEmailTo(t.db, 'rosa.runner@example.test');
    expect(education.template).toBe('pathway-education');
    expect(education.body).toContain('Keep walking every day.');
    expect((await detail(enrolment.id)).steps.find((step) => step.id === educationRun!.id)!.status).toBe('completed');

    // Day 42: the six-week ODI, and the staff task as a notification.
    await runDuePathwaySteps(t.appDb, deps, at(42));
    expect((await latestEmailTo(t.db, 'rosa.runner@example.test')).template).toBe('pathway-pro');
    const raised = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.patientId, rosa), eq(notifications.kind, 'pathwayTask')));
    expect(raised).toHaveLength(1);
    expect(raised[0]!.instanceId).toBe(riverside);

    // Unanswered: reminders on days 45 and 49, missed from day 56 (last reminder + 7).
    await runDuePathwaySteps(t.appDb, deps, at(45));
    await runDuePathwaySteps(t.appDb, deps, at(49));
    await runDuePathwaySteps(t.appDb, deps, at(55));
    view = await detail(enrolment.id);
    const sixWeeks = view.steps.find((step) => step.id === sixWeekRun!.id)!;
    expect([sixWeeks.status, sixWeeks.remindersSent]).toEqual(['sent', 2]);
    await runDuePathwaySteps(t.appDb, deps, at(56));
    view = await detail(enrolment.id);
    expect(view.steps.find((step) => step.id === sixWeekRun!.id)!.status).toBe('missed');
    // The task still waits for staff, so the enrolment runs on.
    expect(view.status).toBe('active');
    expect(view.steps.find((step) => step.id === taskRun!.id)!.status).toBe('sent');

    const done = await call('POST', `/api/pathways/steprun/${taskRun!.id}/done`, 'staff');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<PathwayEnrolment>().status).toBe('completed');

    // Admins see the rate: 3 of 4 due steps completed (the six-week ODI was missed).
    const list = (await call('GET', '/api/pathways', 'admin')).json<PathwaySummary[]>();
    expect(list.find((row) => row.id === plan.id)).toMatchObject({
      dueRuns: 4,
      completedRuns: 3,
      completionRate: 0.75,
      completedEnrolments: 1,
    });
  });

  it('reports change from baseline and the MCID verdict of the instrument', async () => {
    const plan = await pathway('admin', {
      ...odiPlan,
      name: 'Runner: scores',
      steps: odiPlan.steps.filter((step) => step.kind === 'pro'),
    });
    const ana = await patient(riverside, 'Scores', 'ana.scores@example.test');
    const enrolment = await enrol('staff', plan.id, ana);
    await runDuePathwaySteps(t.appDb, deps, at(0));
    await answer(enrolment.steps[0]!.id, 42.2, at(1));
    await runDuePathwaySteps(t.appDb, deps, at(42));
    await answer(enrolment.steps[1]!.id, 32.2, at(43));
    await runDuePathwaySteps(t.appDb, deps, at(43));
    const view = await detail(enrolment.id);
    expect(view.status).toBe('completed');
    // ODI: lower is better; 10 points is its MCID (Ostelo 2008).
    expect(view.steps[1]!.score).toMatchObject({
      headlineScore: 32.2,
      baseline: { headlineScore: 42.2 },
      change: -10,
      better: true,
      mcidPoints: 10,
      meetsMcid: true,
    });
  });

  it('skips a patient who closed their account or cannot be reached, and a request whose window is over', async () => {
    const plan = await pathway('admin', { ...odiPlan, name: 'Runner: skips' });
    const closed = await patient(riverside, 'Closed', 'closed.runner@example.test');
    const unreachable = await patient(riverside, 'Unreachable', null);
    const closedEnrolment = await enrol('staff', plan.id, closed);
    const unreachableEnrolment = await enrol('staff', plan.id, unreachable);
    await t.db.update(patients).set({ accountClosedAt: new Date() }).where(eq(patients.id, closed));
    await runDuePathwaySteps(t.appDb, deps, at(0));
    const closedView = await detail(closedEnrolment.id);
    expect([closedView.steps[0]!.status, closedView.steps[0]!.skipReason]).toEqual(['skipped', 'accountClosed']);
    expect(await emailsTo('closed.runner@example.test')).toHaveLength(0);
    const unreachableView = await detail(unreachableEnrolment.id);
    expect([unreachableView.steps[0]!.status, unreachableView.steps[0]!.skipReason]).toEqual(['skipped', 'unreachable']);

    // First swept on day 30: the baseline's window (7 + 7 days) is over, it is not sent late.
    const late = await patient(riverside, 'Late', 'late.runner@example.test');
    const lateEnrolment = await enrol('staff', plan.id, late);
    await runDuePathwaySteps(t.appDb, deps, at(30));
    const lateView = await detail(lateEnrolment.id);
    expect(lateView.steps[0]!.status).toBe('missed');
    expect(lateView.steps[1]!.status).toBe('completed');
    expect((await emailsTo('late.runner@example.test')).map((row) => row.template)).toEqual(['pathway-education']);
  });

  it('sends a pain journal request and completes it on a journal entry', async () => {
    const plan = await pathway('admin', {
      name: 'Runner: journal',
      trigger: 'manual',
      steps: [{ dayOffset: 2, kind: 'painJournal', reminderDays: [3] }],
    });
    const ben = await patient(riverside, 'Journal', 'ben.journal@example.test');
    const enrolment = await enrol('staff', plan.id, ben);
    await runDuePathwaySteps(t.appDb, deps, at(2));
    const request = await latestEmailTo(t.db, 'ben.journal@example.test');
    expect(request.template).toBe('pathway-journal');
    expect(request.body).toMatch(/\/periodicvas\//);
    await runDuePathwaySteps(t.appDb, deps, at(5));
    expect((await latestEmailTo(t.db, 'ben.journal@example.test')).template).toBe('pathway-reminder');
    const [run] = await t.db.select().from(pathwayStepRuns).where(eq(pathwayStepRuns.id, enrolment.steps[0]!.id));
    await t.db.insert(painEntries).values({
      instanceId: riverside,
      patientId: ben,
      source: 'journal',
      score: 4,
      linkId: run!.linkId,
      recordedAt: at(6),
    });
    await runDuePathwaySteps(t.appDb, deps, at(6, 2));
    const view = await detail(enrolment.id);
    expect(view.steps[0]!.status).toBe('completed');
    expect(view.status).toBe('completed');
  });
});

describe('a planned step whose form lost its wording (issue #24 §1, decision 0061)', () => {
  it('is skipped with the reason in the activity log, and no link or message goes out', async () => {
    const plan = await pathway('admin', { ...odiPlan, name: 'Runner: wording removed' });
    const who = await patient(riverside, 'Wordless', 'wordless@example.test');
    const enrolment = await enrol('admin', plan.id, who);
    await t.db
      .delete(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, riverside), eq(instrumentWordings.formCode, 2)));
    try {
      await runDuePathwaySteps(t.appDb, deps, at(0));
      expect(await t.db.select().from(patientLinks).where(eq(patientLinks.patientId, who))).toHaveLength(0);
      expect(await emailsTo('wordless@example.test')).toHaveLength(0);
      expect((await detail(enrolment.id)).steps[0]).toMatchObject({ status: 'skipped' });
      const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, enrolment.steps[0]!.id));
      expect(logs.map((log) => log.description)).toContain(
        `Pathway step skipped for patient ${who}: the form's licensed wording is not loaded for the clinic`,
      );
    } finally {
      await importTestWording(t.db, riverside, 2);
    }
  });
});

describe("the clinic's daily cap per patient (issue #24 §5, decision 0066)", () => {
  it('holds the fourth pathway email of a clinic day until the next clinic morning, in words', async () => {
    const many = await pathway('admin', {
      name: 'Runner: four messages on day 0',
      trigger: 'manual',
      steps: [1, 2, 3, 4].map((number) => ({ dayOffset: 0, kind: 'education', messageEn: `Tip ${number}` })),
    });
    const email = 'rosa.capped@example.test';
    const capped = await patient(riverside, 'Capped', email);
    await enrol('staff', many.id, capped);

    const sweepAt = at(0);
    await runDuePathwaySteps(t.appDb, deps, sweepAt);
    const sent = (await emailsTo(email)).filter((row) => row.template === 'pathway-education');
    expect(sent).toHaveLength(4);
    const held = sent.filter((row) => row.error === 'heldDailyCap');
    expect(held).toHaveLength(1);
    expect(sent.filter((row) => row.error === null && row.sendAfter === null)).toHaveLength(3);
    // The next clinic morning: 8:00 on the clinic's calendar, the day after the sweep's clinic day.
    const timeZone = await clinicTimeZone(t.db, riverside);
    const today = clinicClock(sweepAt, timeZone);
    expect(held[0]!.sendAfter).toEqual(instantOfClinicTime(today.year, today.month, today.day + 1, timeZone, 8, 0));
    expect(held[0]!.automatic).toBe(true);
    expect(held[0]!.status).not.toBe('suppressed');
  });
});
