import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { activityLogs, appointments, instances, instanceSettings, outboxMessages, patientLinks, patients } from '../../db/schema';
import { jobQueues } from '../../jobs/job-queue';
import { withClinics } from '../../db/tenancy';
import { createMailer } from '../outbox/providers';
import { PATHWAY_SWEEP_CRON } from '../pathways/pathway-runner';
import { createTestApp, waitFor, type TestApp, setInstanceSetting } from '../../../test/test-app';
import { CAMPAIGN_SWEEP_CRON } from '../outreach/campaign-sender';
import { sendDueIntakes, type SweepDeps } from './intake-auto-send';

/** Intake links that go out on their own `intakeFormNotificationHours` before the visit (decision 0034). */
let t: TestApp;
let deps: SweepDeps;
let riverside: string;
let lakeside: string;
const ids = {} as Record<
  'soon' | 'tomorrowEvening' | 'staffSent' | 'cancelled' | 'deleted' | 'past' | 'noContact' | 'lakesideSoon' | 'spanish',
  string
>;

/** Every intake link, the demo clinics' included: their due visits are swept too. */
async function intakeLinkCount() {
  const rows = await t.db.select({ id: patientLinks.id }).from(patientLinks).where(eq(patientLinks.kind, 'intake'));
  return rows.length;
}

async function linksFor(appointmentIds: string[]) {
  return t.db
    .select()
    .from(patientLinks)
    .where(and(inArray(patientLinks.appointmentId, appointmentIds), eq(patientLinks.kind, 'intake')));
}

beforeAll(async () => {
  t = await createTestApp();
  deps = { config: t.config, mailer: createMailer(undefined, 'test@pathwell.test'), jobs: t.app.jobs, events: t.app.events };
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const clinic of [riverside, lakeside]) await setInstanceSetting(t.db, clinic, 'enableEmail', 'true');
  const patient = async (instanceId: string, lastName: string, email: string | null, preferredLanguage: 'en' | 'es' = 'en') => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-06-15', email, preferredLanguage })
      .returning({ id: patients.id });
    return row!.id;
  };
  const visit = async (instanceId: string, patientId: string, hoursFromNow: number, values: object = {}) => {
    const [row] = await t.db
      .insert(appointments)
      .values({
        instanceId,
        patientId,
        reason: 'follow_up',
        startsAt: new Date(Date.now() + hoursFromNow * 3_600_000),
        ...values,
      })
      .returning({ id: appointments.id });
    return row!.id;
  };
  const ana = await patient(riverside, 'Sweep', 'ana.sweep@example.test');
  ids.soon = await visit(riverside, ana, 3);
  ids.tomorrowEvening = await visit(riverside, ana, 30);
  ids.staffSent = await visit(riverside, ana, 4);
  ids.cancelled = await visit(riverside, ana, 5, { status: AppointmentStatus.No_Show });
  ids.deleted = await visit(riverside, ana, 6, { deletedAt: new Date() });
  ids.past = await visit(riverside, ana, -1);
  ids.noContact = await visit(riverside, await patient(riverside, 'Nocontact', null), 2);
  ids.spanish = await visit(riverside, await patient(riverside, 'Lopez', 'rosa.lopez@example.test', 'es'), 5);
  ids.lakesideSoon = await visit(lakeside, await patient(lakeside, 'Sweep', 'ana.lake@example.test'), 2);
  // Staff already sent this one's link: the sweep leaves it alone.
  await t.db.insert(patientLinks).values({
    instanceId: riverside,
    patientId: ana,
    appointmentId: ids.staffSent,
    kind: 'intake',
    intakePlan: { steps: [4], formCodes: [], historyFormIds: [], checkInFormIds: [] },
    tokenHash: 'x'.repeat(64),
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  // Lakeside does not send them on its own.
  await setInstanceSetting(t.db, lakeside, 'intakeFormNotificationHours', '0');
});
afterAll(async () => {
  await t?.close();
});

describe('the intake sweep', () => {
  it("sends each due visit's link once, by the clinic's window, as staff would", async () => {
    const all = Object.values(ids);
    const before = await linksFor(all);
    expect(before).toHaveLength(1);
    const countBefore = await intakeLinkCount();

    const first = await sendDueIntakes(t.appDb, deps);
    expect(first.sent).toBe((await intakeLinkCount()) - countBefore);
    const made = (await linksFor(all)).filter((link) => link.appointmentId !== ids.staffSent);
    expect(made.map((link) => link.appointmentId).sort()).toEqual([ids.soon, ids.spanish].sort());
    expect(first.unreachable).toBeGreaterThanOrEqual(1);
    for (const link of made) {
      expect(link.createdBy).toBeNull();
      expect(link.intakePlan!.steps).toEqual(expect.arrayContaining([2, 4, 5]));
      expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
    }

    const messages = await t.db
      .select()
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.template, 'intake'),
          inArray(
            outboxMessages.patientId,
            made.map((link) => link.patientId),
          ),
        ),
      );
    expect(messages.map((message) => message.recipient).sort()).toEqual(['ana.sweep@example.test', 'rosa.lopez@example.test']);
    const spanish = messages.find((message) => message.recipient === 'rosa.lopez@example.test')!;
    expect(spanish.subject).toMatch(/formularios|cita/i);
    const logs = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(
          inArray(
            activityLogs.targetId,
            made.map((link) => link.id),
          ),
          eq(activityLogs.area, 'Intake Information'),
        ),
      );
    expect(logs.map((log) => log.action).sort()).toEqual(['Created', 'Created', 'Sent', 'Sent']);
    expect(logs.every((log) => log.actorUserId === null)).toBe(true);

    // A second sweep finds nothing new.
    const second = await sendDueIntakes(t.appDb, deps);
    expect(second.sent).toBe(0);
    expect(await linksFor(all)).toHaveLength(3);
  });

  it('a wider window reaches the later visit; 0 turns a clinic off', async () => {
    await setInstanceSetting(t.db, riverside, 'intakeFormNotificationHours', '48');
    try {
      const countBefore = await intakeLinkCount();
      const result = await sendDueIntakes(t.appDb, deps);
      expect(result.sent).toBe((await intakeLinkCount()) - countBefore);
      expect(await linksFor([ids.tomorrowEvening])).toHaveLength(1);
    } finally {
      await setInstanceSetting(t.db, riverside, 'intakeFormNotificationHours', '24');
    }
    expect(await linksFor([ids.lakesideSoon])).toHaveLength(0);
    expect(await linksFor([ids.cancelled, ids.deleted, ids.past, ids.noContact])).toHaveLength(0);
  });

  it('is a cron schedule of the job queue when the server has it on, and sweeps at start', async () => {
    const on = await createTestApp({ INTAKE_AUTO_SEND: 'true' });
    try {
      const schedule = await rowsOf<{ name: string; cron: string }>(
        on.db,
        sql`select name, cron from pgboss.schedule order by name`,
      );
      // The same switch runs the pathway sweep (decision 0041) and the campaign sweep (decision 0051).
      expect(schedule).toEqual([
        { name: jobQueues.campaignSweep, cron: CAMPAIGN_SWEEP_CRON },
        { name: jobQueues.intakeSweep, cron: '*/5 * * * *' },
        { name: jobQueues.pathwaySweep, cron: PATHWAY_SWEEP_CRON },
      ]);
      const [clinic] = await on.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
      await on.db
        .insert(instanceSettings)
        .values({ instanceId: clinic!.id, configurationId: 'enableEmail', configurationValue: 'true' })
        .onConflictDoUpdate({
          target: [instanceSettings.instanceId, instanceSettings.configurationId],
          set: { configurationValue: 'true' },
        });
      const [person] = await on.db
        .insert(patients)
        .values({
          instanceId: clinic!.id,
          firstName: 'Ana',
          lastName: 'Start',
          dateOfBirth: '1968-06-15',
          email: 'a.start@example.test',
        })
        .returning({ id: patients.id });
      const [visit] = await on.db
        .insert(appointments)
        .values({ instanceId: clinic!.id, patientId: person!.id, startsAt: new Date(Date.now() + 2 * 3_600_000) })
        .returning({ id: appointments.id });
      // The sweep queued at start-up may have run before this visit existed: queue one more, as the cron does.
      await withClinics(on.appDb, [], (tx) => on.app.jobs.enqueue(tx, jobQueues.intakeSweep, {}));
      const link = await waitFor(async () => {
        const [row] = await on.db.select().from(patientLinks).where(eq(patientLinks.appointmentId, visit!.id));
        return row;
      }, 15_000);
      expect(link.kind).toBe('intake');
    } finally {
      await on.close();
    }
  }, 60_000);
});
