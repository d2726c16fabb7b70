import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetail, CampaignRecipient } from '@pathwell/contracts/campaigns';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import { PatientPhoneType, phoneDigits } from '@pathwell/contracts/patients';
import {
  audienceTemplates,
  campaignRecipients,
  codedVisitCodes,
  codedVisits,
  instances,
  outboxMessages,
  patientPhoneNumbers,
  patients,
  smsOptOuts,
} from '../../db/schema';
import { createMailer } from '../outbox/providers';
import { openBody } from '../outbox/outbox.service';
import { createTestApp, nextIp, setInstanceSetting, signIn, zoneAtHour, type TestApp } from '../../../test/test-app';
import { runCampaignSends, textWithStop, type CampaignSweepDeps } from './campaign-sender';

/** The campaign sweep over a fixed clock (decision 0051): nothing waits for a real minute to pass. */
let t: TestApp;
let riverside: string;
let deps: CampaignSweepDeps;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const HOUR = 3_600_000;
/** Noon in the clinic (its zone is set so); 11 hours later it is 23:00, outside the 8:00–21:00 day. */
let now: Date;
const night = () => new Date(now.getTime() + 11 * HOUR);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

let phoneCounter = 400;
async function codedPatient(code: string, lastName: string, values: { language?: 'en' | 'es'; email?: string | null } = {}) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: lastName.slice(0, 4),
      lastName,
      dateOfBirth: '1970-05-05',
      email: values.email === undefined ? `${lastName.toLowerCase()}@example.test` : values.email,
      preferredLanguage: values.language ?? 'en',
    })
    .returning({ id: patients.id });
  const mobile = `(512) 555-${String(++phoneCounter).padStart(4, '0')}`;
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: riverside,
    patientId: row!.id,
    phoneType: PatientPhoneType.MOBILE,
    number: mobile,
    digits: phoneDigits(mobile),
    isPrimary: true,
  });
  const [visit] = await t.db
    .insert(codedVisits)
    .values({
      instanceId: riverside,
      patientId: row!.id,
      visitDate: '2025-02-01',
      source: 'import',
      dedupeKey: `s:${row!.id}`,
      codes: [code],
    })
    .returning({ id: codedVisits.id });
  await t.db.insert(codedVisitCodes).values({
    instanceId: riverside,
    codedVisitId: visit!.id,
    code,
    kind: 'diagnosis',
    patientId: row!.id,
    visitDate: '2025-02-01',
  });
  return { id: row!.id, phone: `+1${phoneDigits(mobile)}` };
}

/** A campaign written by the Admin and approved by the System Manager. */
async function approvedCampaign(code: string, extra: object) {
  const [template] = await t.db
    .insert(audienceTemplates)
    .values({
      instanceId: riverside,
      kind: 'campaign',
      name: `Sender ${code}`,
      rule: audienceRuleSchema.parse({ codes: [code] }),
    })
    .returning({ id: audienceTemplates.id });
  const created = await call('POST', '/api/campaigns', 'admin', {
    name: `Sender ${code}`,
    templateId: template!.id,
    channels: ['sms'],
    messageEn: 'Hi {firstName}, time for a check-up at {clinic}: {link}',
    messageEs: 'Hola {firstName}, es hora de una revisión en {clinic}: {link}',
    linkUrl: 'https://book.example.test/',
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  const draft = created.json<CampaignDetail>();
  const approved = await call('POST', `/api/campaigns/${draft.id}/approve`, 'manager', { contentHash: draft.contentHash });
  expect(approved.statusCode, approved.body).toBe(200);
  return approved.json<CampaignDetail>();
}

const recipientsOf = (campaignId: string) =>
  t.db
    .select()
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId))
    .orderBy(campaignRecipients.position);
const messagesOf = (campaignId: string) => t.db.select().from(outboxMessages).where(eq(outboxMessages.batchId, campaignId));
const status = async (campaignId: string) => (await call('GET', `/api/campaigns/${campaignId}`, 'admin')).json<CampaignDetail>();

beforeAll(async () => {
  t = await createTestApp();
  deps = { config: t.config, mailer: createMailer(undefined, 'test@pathwell.test'), jobs: t.app.jobs };
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  // Approving a campaign also wakes the app's own sweep, which runs on the real clock: in the clinic it
  // is 2:00 now, so that sweep sends nothing, and this file's runs happen ten hours on, at noon.
  await setInstanceSetting(t.db, riverside, 'timeZoneId', zoneAtHour(2));
  now = new Date(Date.now() + 10 * HOUR);
  await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
  await setInstanceSetting(t.db, riverside, 'campaignEmails', 'ops@example.test,lead@example.test');
  for (const who of ['admin', 'manager']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

describe('the campaign sweep', () => {
  it('sends the throttle per run in order, holds texts while toggled off, finishes with a summary, and never sends twice', async () => {
    const code = 'M79.611';
    // Five recipients by name: Thra, Thrb, Thrc (Spanish), Thrd, Thre; throttle 2 a minute.
    const people: Awaited<ReturnType<typeof codedPatient>>[] = [];
    for (const [name, language] of [
      ['Thra', 'en'],
      ['Thrb', 'en'],
      ['Thrc', 'es'],
      ['Thrd', 'en'],
      ['Thre', 'en'],
    ] as const) {
      people.push(await codedPatient(code, `${name}ottle`, { language }));
    }
    const campaign = await approvedCampaign(code, { throttlePerMinute: 2 });
    expect(campaign.funnel).toMatchObject({ recipients: 5, pending: 5 });

    // Run 1: positions 0 and 1 (2 of 5).
    await runCampaignSends(t.appDb, deps, now);
    let rows = await recipientsOf(campaign.id);
    expect(rows.map((row) => row.smsStatus)).toEqual(['queued', 'queued', 'pending', 'pending', 'pending']);
    expect(rows[0]!.queuedAt?.getTime()).toBe(now.getTime());
    expect(await messagesOf(campaign.id)).toHaveLength(2);

    // Texts off: the run sends nothing (these are text-only recipients); the campaign keeps running.
    expect((await call('PUT', `/api/campaigns/${campaign.id}/textsending`, 'admin', { enabled: false })).statusCode).toBe(200);
    await runCampaignSends(t.appDb, deps, now);
    expect(await messagesOf(campaign.id)).toHaveLength(2);
    expect((await status(campaign.id)).status).toBe('approved');

    // Back on: run 3 sends positions 2 and 3 (4 of 5), run 4 the last one and finishes.
    await call('PUT', `/api/campaigns/${campaign.id}/textsending`, 'admin', { enabled: true });
    await runCampaignSends(t.appDb, deps, now);
    expect(await messagesOf(campaign.id)).toHaveLength(4);
    await runCampaignSends(t.appDb, deps, now);
    rows = await recipientsOf(campaign.id);
    expect(rows.every((row) => row.smsStatus === 'queued')).toBe(true);
    const messages = await messagesOf(campaign.id);
    expect(messages).toHaveLength(5);
    expect(messages.every((message) => message.template === 'campaign' && message.channel === 'sms')).toBe(true);
    const finished = await status(campaign.id);
    expect(finished).toMatchObject({ status: 'finished', funnel: { recipients: 5, pending: 0 } });

    // Each text in the patient's language, with their own short link and the stop line.
    const byPatient = new Map(messages.map((message) => [message.patientId, openBody(t.config, message)]));
    const first = rows[0]!;
    expect(byPatient.get(people[0]!.id)).toBe(
      textWithStop(`Hi Thra, time for a check-up at Riverside Spine & Pain: ${t.config.publicUrl}/l/${first.linkCode}`, 'en'),
    );
    expect(byPatient.get(people[2]!.id)).toMatch(
      /^Hola Thrc, es hora de una revisión en Riverside Spine & Pain: .*\/l\/[\w-]{12} Responda PARAR/,
    );
    expect(messages.find((message) => message.patientId === people[0]!.id)!.recipient).toBe(people[0]!.phone);

    // The summary went to both campaignEmails addresses.
    const summaries = await t.db.select().from(outboxMessages).where(eq(outboxMessages.template, 'campaign-summary'));
    expect(summaries.map((summary) => summary.recipient).sort()).toEqual(['lead@example.test', 'ops@example.test']);
    expect(openBody(t.config, summaries[0]!)).toContain('Recipients: 5');

    // Never twice: further runs queue nothing new.
    await runCampaignSends(t.appDb, deps, now);
    await runCampaignSends(t.appDb, deps, new Date(now.getTime() + HOUR));
    expect(await messagesOf(campaign.id)).toHaveLength(5);
    expect(await t.db.select().from(outboxMessages).where(eq(outboxMessages.template, 'campaign-summary'))).toHaveLength(2);
  });

  it('waits for its scheduled time and for daytime in the clinic (emails too)', async () => {
    const code = 'M79.612';
    await codedPatient(code, 'Daytimea');
    await codedPatient(code, 'Daytimeb');
    const campaign = await approvedCampaign(code, {
      channels: ['email'],
      subjectEn: 'Check-up',
      subjectEs: 'Revisión',
      scheduledAt: new Date(now.getTime() + HOUR).toISOString(),
    });
    // Before its time: nothing.
    await runCampaignSends(t.appDb, deps, now);
    expect(await messagesOf(campaign.id)).toHaveLength(0);
    // Due, but 23:00 in the clinic: nothing.
    await runCampaignSends(t.appDb, deps, night());
    expect(await messagesOf(campaign.id)).toHaveLength(0);
    // 13:00: both emails, and the campaign is done.
    await runCampaignSends(t.appDb, deps, new Date(now.getTime() + HOUR));
    const messages = await messagesOf(campaign.id);
    expect(messages.map((message) => [message.channel, message.subject])).toEqual([
      ['email', 'Check-up'],
      ['email', 'Check-up'],
    ]);
    expect((await status(campaign.id)).status).toBe('finished');
  });

  it('never queues a text to a number that answered STOP after approval', async () => {
    const code = 'M79.613';
    await codedPatient(code, 'Stoppera');
    const stopped = await codedPatient(code, 'Stopperb');
    const campaign = await approvedCampaign(code, {});
    await t.db.insert(smsOptOuts).values({ instanceId: riverside, phone: stopped.phone, optedOut: true, keyword: 'STOP' });
    await runCampaignSends(t.appDb, deps, now);
    const rows = await recipientsOf(campaign.id);
    expect(rows.map((row) => [row.smsStatus, row.smsSkipReason])).toEqual([
      ['queued', null],
      ['skipped', 'optedOut'],
    ]);
    const messages = await messagesOf(campaign.id);
    expect(messages.map((message) => message.patientId)).not.toContain(stopped.id);
    expect((await status(campaign.id)).funnel).toMatchObject({ recipients: 2, skipped: 1, pending: 0 });
  });

  it('texts turned off in the clinic after approval: each recipient not reached keeps the reason, listed in words', async () => {
    const code = 'M79.615';
    await codedPatient(code, 'Offtexta');
    await codedPatient(code, 'Offtextb', { email: null });
    const campaign = await approvedCampaign(code, {
      channels: ['sms', 'email'],
      subjectEn: 'Check-up',
      subjectEs: 'Revisión',
    });
    await setInstanceSetting(t.db, riverside, 'enableSms', 'false');
    try {
      await runCampaignSends(t.appDb, deps, now);
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
    }
    const rows = await recipientsOf(campaign.id);
    expect(rows.map((row) => [row.smsSkipReason, row.emailStatus, row.emailSkipReason])).toEqual([
      ['clinicSmsOff', 'queued', null],
      ['clinicSmsOff', 'skipped', 'noAddress'],
    ]);
    const list = await call('GET', `/api/patients/patientscontrollist?campaignId=${campaign.id}`, 'admin');
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list.json<{ data: CampaignRecipient[] }>().data.map((row) => [row.patientName, row.smsReason, row.emailReason]),
    ).toEqual([
      // The test app has no mail provider: the email is kept in the outbox, and the list says so.
      ['Offt Offtexta', 'clinicSmsOff', 'noProvider'],
      ['Offt Offtextb', 'clinicSmsOff', 'noAddress'],
    ]);
    // Nobody was texted; the second patient is reached on no channel.
    expect((await status(campaign.id)).funnel).toMatchObject({ recipients: 2, sent: 0, skipped: 1 });
  });

  it('finishing by hand skips whoever is still waiting', async () => {
    const code = 'M79.614';
    for (const name of ['Handa', 'Handb', 'Handc']) await codedPatient(code, name);
    const campaign = await approvedCampaign(code, { throttlePerMinute: 1 });
    await runCampaignSends(t.appDb, deps, now);
    const finished = await call('POST', `/api/campaigns/${campaign.id}/finish`, 'admin');
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json<CampaignDetail>()).toMatchObject({
      status: 'finished',
      funnel: { recipients: 3, skipped: 2, pending: 0 },
    });
    const rows = await recipientsOf(campaign.id);
    expect(rows.map((row) => [row.smsStatus, row.smsSkipReason])).toEqual([
      ['queued', null],
      ['skipped', 'finished'],
      ['skipped', 'finished'],
    ]);
    await runCampaignSends(t.appDb, deps, now);
    expect(await messagesOf(campaign.id)).toHaveLength(1);
    // Its summary went out once, with the funnel as it was finished.
    const summaries = (
      await t.db
        .select()
        .from(outboxMessages)
        .where(and(eq(outboxMessages.template, 'campaign-summary'), eq(outboxMessages.recipient, 'ops@example.test')))
    )
      .map((row) => openBody(t.config, row))
      .filter((body) => body.includes(`"${campaign.name}"`));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain('Recipients: 3');
  });
});
