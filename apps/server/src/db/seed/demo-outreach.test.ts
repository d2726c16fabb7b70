import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicClock } from '@pathwell/contracts/clinic-time';
import { visitCodeKindOf, type AudienceRule } from '@pathwell/contracts/outreach';
import { RoleCode } from '@pathwell/contracts/roles';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';
import { withSystemAccess } from '../tenancy';
import {
  appointments,
  audienceTemplates,
  campaignRecipients,
  campaigns,
  codedVisits,
  codeGroups,
  encounterImports,
  hotlistCalls,
  hotlistEntries,
  hotlists,
  inboundTexts,
  instances,
  outboxMessages,
  patients,
  smsOptOuts,
  users,
} from '../schema';
import { resolveAudience } from '../../modules/outreach/audience.service';
import {
  DEMO_DRAFT_CAMPAIGN,
  DEMO_FINISHED_CAMPAIGN,
  DEMO_HOTLIST,
  DEMO_HOTLIST_TEMPLATE,
  DEMO_KNEE_CODES,
  DEMO_KNEE_TEMPLATE,
  DEMO_LAPSED_TEMPLATE,
  DEMO_LUMBAR_CODES,
  DEMO_LUMBAR_GROUP,
  DEMO_PROFILES,
  monthsBefore,
  seedDemoOutreach,
} from './demo-outreach';

/** What the campaigns and hot lists (issue #15) have to show in the demo clinic, and nowhere else. */
let t: TestApp;
let riverside: string;
let lakeside: string;
const TZ = 'America/Chicago';
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
});
afterAll(async () => {
  await t?.close();
});

const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: T[] }).rows;
const userId = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0]!.id;
const clinicDay = (instant: Date) => {
  const clock = clinicClock(instant, TZ);
  return Math.floor(Date.UTC(clock.year, clock.month - 1, clock.day) / DAY);
};
const isoOfDay = (dayIndex: number) => new Date(dayIndex * DAY).toISOString().slice(0, 10);
const allowedCodes = new Set<string>([
  ...Object.values(DEMO_PROFILES).flatMap((profile) => [
    ...profile.diagnoses.map(([code]) => code),
    ...profile.secondary,
    ...profile.procedures.flat(),
  ]),
  '99204',
  '99213',
  '99214',
]);

describe('demo outreach', () => {
  it('gives Riverside a second admin who signs in', async () => {
    const [approver] = await t.db.select().from(users).where(eq(users.email, 'approver@pathwell.demo'));
    expect(approver).toMatchObject({ role: RoleCode.Admin, instanceId: riverside, isParent: false, status: 'active' });
    const session = await signIn(t.app, 'approver@pathwell.demo');
    expect(session.id).toBe(approver!.id);
  });

  it('codes the demo patients’ visits over the last two years with ICD-10-CM and CPT codes of a pain clinic', async () => {
    const visits = await t.db.select().from(codedVisits).where(eq(codedVisits.instanceId, riverside));
    expect(visits.length).toBeGreaterThan(300);
    expect(new Set(visits.map((visit) => visit.patientId)).size).toBeGreaterThan(80);
    expect(visits.some((visit) => visit.source === 'pathwell' && visit.visitRecordId !== null)).toBe(true);
    const imported = visits.filter((visit) => visit.source === 'import');
    expect(imported.length).toBeGreaterThan(200);
    const today = isoOfDay(clinicDay(new Date()));
    const twoYearsAgo = monthsBefore(clinicDay(new Date()), 24);
    for (const visit of visits) {
      expect(visit.visitDate <= today && visit.visitDate >= twoYearsAgo, visit.visitDate).toBe(true);
      expect(visit.codes.every((code) => visitCodeKindOf(code) !== null)).toBe(true);
      expect(visit.codes.some((code) => visitCodeKindOf(code) === 'diagnosis')).toBe(true);
    }
    expect(imported.every((visit) => visit.codes.every((code) => allowedCodes.has(code)))).toBe(true);
    // Spread over the two years: visits in the last six months and more than a year ago.
    expect(visits.some((visit) => visit.visitDate >= monthsBefore(clinicDay(new Date()), 6))).toBe(true);
    expect(visits.some((visit) => visit.visitDate < monthsBefore(clinicDay(new Date()), 12))).toBe(true);
    const [log] = await t.db.select().from(encounterImports).where(eq(encounterImports.instanceId, riverside));
    expect(log).toMatchObject({ status: 'done', importedRows: imported.length, errorRows: 0 });
    expect(imported.every((visit) => visit.importId === log!.id)).toBe(true);
  });

  it('keeps each code row in step with its visit: same patient, date, provider and codes, kind by shape', async () => {
    const [mismatch] = await rowsOf<{ visits: number; codes: number }>(sql`
      select
        (select count(*)::int from coded_visits v where v.instance_id = ${riverside}
           and v.codes::text[] is distinct from (select array_agg(c.code order by array_position(v.codes, c.code))
                                         from coded_visit_codes c where c.coded_visit_id = v.id)) as visits,
        (select count(*)::int from coded_visit_codes c join coded_visits v on v.id = c.coded_visit_id
          where c.instance_id <> v.instance_id or c.patient_id <> v.patient_id or c.visit_date <> v.visit_date
             or c.provider_id is distinct from v.provider_id
             or c.kind <> case when c.code ~ '^[A-Z][0-9][0-9A-Z]' then 'diagnosis' else 'procedure' end) as codes`);
    expect(mismatch).toEqual({ visits: 0, codes: 0 });
  });

  it('has lumbar radiculopathy patients last seen more than six months ago whom the template finds', async () => {
    const [template] = await t.db
      .select()
      .from(audienceTemplates)
      .where(and(eq(audienceTemplates.instanceId, riverside), eq(audienceTemplates.name, DEMO_LAPSED_TEMPLATE)));
    const sixMonthsAgo = monthsBefore(clinicDay(new Date()), 6);
    expect(template!.rule).toMatchObject({ matchMode: 2, lastVisitBefore: sixMonthsAgo, noUpcomingAppointment: true });
    const members = await withSystemAccess(t.db, 'bootstrap', (tx) =>
      resolveAudience(tx, riverside, template!.rule as AudienceRule, { kind: 'campaign', channels: ['sms', 'email'] }),
    );
    expect(members.length).toBeGreaterThanOrEqual(6);
    for (const member of members) {
      expect(member.lastVisit! < sixMonthsAgo).toBe(true);
      expect(member.matchedCodes.some((code) => (DEMO_LUMBAR_CODES as readonly string[]).includes(code))).toBe(true);
    }
    // Their appointments moved back whole weeks: none after the six months, none booked ahead.
    const recent = await t.db
      .select()
      .from(appointments)
      .where(
        and(
          eq(appointments.instanceId, riverside),
          sql`${appointments.patientId} = any(${`{${members.map((member) => member.patientId).join(',')}}`}::uuid[])`,
          sql`${appointments.startsAt} >= ${sixMonthsAgo}::date`,
        ),
      );
    expect(recent).toEqual([]);
    const registered = await t.db
      .select({ id: patients.id, createdAt: patients.createdAt, first: sql<string>`min(${appointments.startsAt})` })
      .from(patients)
      .innerJoin(appointments, and(eq(appointments.instanceId, patients.instanceId), eq(appointments.patientId, patients.id)))
      .where(
        and(
          eq(patients.instanceId, riverside),
          sql`${patients.id} = any(${`{${members.map((member) => member.patientId).join(',')}}`}::uuid[])`,
        ),
      )
      .groupBy(patients.id, patients.createdAt);
    expect(registered.every((row) => row.createdAt.getTime() < new Date(row.first).getTime())).toBe(true);
  });

  it('has the code groups and the campaign and hot-list templates', async () => {
    const groups = await t.db.select().from(codeGroups).where(eq(codeGroups.instanceId, riverside));
    expect(groups.find((group) => group.name === DEMO_LUMBAR_GROUP)?.codes).toEqual([...DEMO_LUMBAR_CODES]);
    expect(groups.find((group) => group.name === 'Knee osteoarthritis')?.codes).toEqual([...DEMO_KNEE_CODES]);
    const templates = await t.db.select().from(audienceTemplates).where(eq(audienceTemplates.instanceId, riverside));
    expect(templates.map((template) => [template.kind, template.name]).sort()).toEqual(
      [
        ['campaign', DEMO_KNEE_TEMPLATE],
        ['campaign', DEMO_LAPSED_TEMPLATE],
        ['hotlist', DEMO_HOTLIST_TEMPLATE],
      ].sort(),
    );
    const knee = templates.find((template) => template.name === DEMO_KNEE_TEMPLATE)!.rule as AudienceRule;
    expect(knee).toMatchObject({ matchMode: 3, codes: ['20610'] });
  });

  it('has a finished bilingual text campaign approved by the second admin, with delivered messages and responses', async () => {
    const [campaign] = await t.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.instanceId, riverside), eq(campaigns.name, DEMO_FINISHED_CAMPAIGN)));
    expect(campaign).toMatchObject({
      status: 'finished',
      channels: ['sms'],
      createdBy: await userId('admin@pathwell.demo'),
      approvedBy: await userId('approver@pathwell.demo'),
    });
    expect(campaign!.messageEs).toMatch(/^Hola \{firstName\}/);
    expect(campaign!.approvedAt!.getTime()).toBeLessThan(campaign!.startedAt!.getTime());
    expect(campaign!.finishedAt!.getTime()).toBeLessThan(Date.now());

    const recipients = await t.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign!.id));
    expect(recipients.length).toBe(campaign!.recipientCount);
    expect(recipients.length).toBeGreaterThanOrEqual(6);
    expect(recipients.every((row) => row.instanceId === riverside && row.smsStatus === 'queued' && row.linkCode)).toBe(true);
    expect(recipients.every((row) => row.queuedAt!.getTime() >= campaign!.startedAt!.getTime())).toBe(true);

    const messages = await t.db.select().from(outboxMessages).where(eq(outboxMessages.batchId, campaign!.id));
    expect(messages.length).toBe(recipients.length);
    expect(messages.every((message) => message.instanceId === riverside && message.channel === 'sms')).toBe(true);
    expect(messages.filter((message) => message.status === 'delivered').length).toBe(recipients.length - 1);
    expect(new Set(messages.map((message) => message.id))).toEqual(new Set(recipients.map((row) => row.smsMessageId)));
    for (const row of recipients) {
      const message = messages.find((candidate) => candidate.id === row.smsMessageId)!;
      expect(message.patientId).toBe(row.patientId);
      expect(message.recipient).toBe(row.phone);
      expect(message.body).toContain(`/l/${row.linkCode}`);
      expect(message.body).toMatch(row.language === 'es' ? /^Hola / : /^Hi /);
    }

    expect(recipients.filter((row) => row.clickedAt !== null).length).toBeGreaterThanOrEqual(2);
    const replied = recipients.filter((row) => row.repliedAt !== null);
    expect(replied).toHaveLength(2);
    const inbound = await t.db.select().from(inboundTexts).where(eq(inboundTexts.campaignId, campaign!.id));
    expect(inbound).toHaveLength(3);
    const replies = inbound.filter((row) => row.keyword === null);
    expect(replies.map((row) => row.campaignRecipientId).sort()).toEqual(replied.map((row) => row.id).sort());
    expect(replies.some((row) => row.body.startsWith('Sí'))).toBe(true);

    const stopped = recipients.filter((row) => row.optedOutAt !== null);
    expect(stopped).toHaveLength(1);
    expect(inbound.find((row) => row.keyword === 'STOP')?.fromPhone).toBe(stopped[0]!.phone);
    const [optOut] = await t.db
      .select()
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.instanceId, riverside), eq(smsOptOuts.phone, stopped[0]!.phone!)));
    expect(optOut).toMatchObject({ optedOut: true, keyword: 'STOP' });

    // Booked: a new appointment made after the text and within the attribution window.
    const bookings = await rowsOf<{ patient_id: string }>(sql`
      select distinct r.patient_id from campaign_recipients r
        join appointments a on a.instance_id = r.instance_id and a.patient_id = r.patient_id
       where r.campaign_id = ${campaign!.id} and a.deleted_at is null and a.created_at > r.queued_at
         and a.created_at < r.queued_at + make_interval(days => ${campaign!.attributionDays})`);
    expect(bookings).toHaveLength(1);
  });

  it('has a draft campaign waiting for approval', async () => {
    const drafts = await t.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.instanceId, riverside), eq(campaigns.status, 'draft')));
    expect(drafts.map((row) => row.name)).toEqual([DEMO_DRAFT_CAMPAIGN]);
    expect(drafts[0]).toMatchObject({ approvedBy: null, recipientCount: 0, channels: ['sms', 'email'] });
    expect(drafts[0]!.subjectEs).toBeTruthy();
    expect(await t.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, drafts[0]!.id))).toEqual([]);
  });

  it('has a hot list in progress: four calls by the staff member, a voicemail to call back tomorrow, the rest open', async () => {
    const [list] = await t.db.select().from(hotlists).where(eq(hotlists.instanceId, riverside));
    expect(list).toMatchObject({ name: DEMO_HOTLIST, status: 'active' });
    const entries = await t.db.select().from(hotlistEntries).where(eq(hotlistEntries.hotlistId, list!.id));
    expect(entries.length).toBe(list!.entryCount);
    expect(entries.length).toBeGreaterThanOrEqual(7);
    const done = entries.filter((row) => row.outcome !== null);
    expect(done.map((row) => row.outcome).sort()).toEqual(['reachedBooked', 'reachedDeclined', 'voicemail', 'wrongNumber']);
    const staff = await userId('staff@pathwell.demo');
    expect(done.every((row) => row.outcomeBy === staff && row.attempts === 1)).toBe(true);
    const voicemail = done.find((row) => row.outcome === 'voicemail')!;
    expect(clinicDay(voicemail.callbackAt!)).toBe(clinicDay(new Date()) + 1);
    const open = entries.filter((row) => row.outcome === null);
    expect(open.length).toBeGreaterThanOrEqual(3);
    expect(open.every((row) => row.claimedBy === null && row.attempts === 0)).toBe(true);
    const calls = await t.db.select().from(hotlistCalls).where(eq(hotlistCalls.hotlistId, list!.id));
    expect(calls.map((row) => row.entryId).sort()).toEqual(done.map((row) => row.id).sort());
    expect(calls.every((row) => row.userId === staff && row.createdAt.getTime() < Date.now())).toBe(true);
  });

  it('puts nothing in Lakeside', async () => {
    for (const table of [codedVisits, codeGroups, audienceTemplates, campaigns, campaignRecipients, inboundTexts, hotlists]) {
      const rows = await t.db
        .select({ count: sql<number>`count(*)::int` })
        .from(table)
        .where(eq(table.instanceId, lakeside));
      expect(rows[0]!.count).toBe(0);
    }
    const [foreign] = await rowsOf<{ count: number }>(sql`
      select count(*)::int as count from coded_visits v join patients p on p.id = v.patient_id where p.instance_id <> v.instance_id`);
    expect(foreign!.count).toBe(0);
    const lakesidePatients = await t.db.select({ id: patients.id }).from(patients).where(eq(patients.instanceId, lakeside));
    expect(lakesidePatients.length).toBeGreaterThan(0);
  });

  it('runs once: seeding the clinic again adds nothing', async () => {
    const counts = async () =>
      rowsOf<Record<string, number>>(sql`select
        (select count(*)::int from coded_visits) as visits, (select count(*)::int from campaigns) as campaigns,
        (select count(*)::int from hotlist_entries) as entries, (select count(*)::int from appointments) as appointments,
        (select count(*)::int from outbox_messages) as messages, (select count(*)::int from users) as users`);
    const before = await counts();
    const people = {
      authorId: await userId('admin@pathwell.demo'),
      approverId: await userId('approver@pathwell.demo'),
      staffId: await userId('staff@pathwell.demo'),
    };
    await withSystemAccess(t.db, 'bootstrap', (tx) => seedDemoOutreach(tx, { instanceId: riverside, timeZone: TZ, ...people }));
    expect(await counts()).toEqual(before);
  });
});
