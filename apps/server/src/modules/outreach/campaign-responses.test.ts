import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetail, CampaignResponse, CampaignSummary } from '@pathwell/contracts/campaigns';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import { PatientPhoneType, phoneDigits } from '@pathwell/contracts/patients';
import {
  activityLogs,
  appointments,
  audienceTemplates,
  campaignRecipients,
  codedVisitCodes,
  codedVisits,
  inboundTexts,
  instances,
  outboxMessages,
  patientPhoneNumbers,
  patients,
} from '../../db/schema';
import { createMailer } from '../outbox/providers';
import { createTestApp, nextIp, setInstanceSetting, signIn, zoneAtHour, type TestApp } from '../../../test/test-app';
import { runCampaignSends, type CampaignSweepDeps } from './campaign-sender';

/** Replies, opt-outs, clicks and bookings of a campaign, and the results funnel (decision 0051). */
let t: TestApp;
let riverside: string;
let deps: CampaignSweepDeps;
let now: Date;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const DAY = 86_400_000;

const call = (method: 'GET' | 'POST', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

let phoneCounter = 600;
async function codedPatient(code: string, lastName: string, values: { language?: 'en' | 'es'; doctorId?: string } = {}) {
  const mobile = `(512) 555-${String(++phoneCounter).padStart(4, '0')}`;
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Lucia',
      lastName,
      dateOfBirth: '1958-11-20',
      preferredLanguage: values.language ?? 'en',
      doctorId: values.doctorId ?? null,
    })
    .returning({ id: patients.id });
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: riverside,
    patientId: row!.id,
    phoneType: PatientPhoneType.MOBILE,
    number: mobile,
    digits: phoneDigits(mobile),
  });
  const [visit] = await t.db
    .insert(codedVisits)
    .values({
      instanceId: riverside,
      patientId: row!.id,
      visitDate: '2025-03-01',
      source: 'import',
      dedupeKey: `r:${row!.id}`,
      codes: [code],
    })
    .returning({ id: codedVisits.id });
  await t.db.insert(codedVisitCodes).values({
    instanceId: riverside,
    codedVisitId: visit!.id,
    code,
    kind: 'diagnosis',
    patientId: row!.id,
    visitDate: '2025-03-01',
  });
  return { id: row!.id, mobile };
}

async function approvedCampaign(code: string) {
  const [template] = await t.db
    .insert(audienceTemplates)
    .values({
      instanceId: riverside,
      kind: 'campaign',
      name: `Responses ${code}`,
      rule: audienceRuleSchema.parse({ codes: [code] }),
    })
    .returning({ id: audienceTemplates.id });
  const created = await call('POST', '/api/campaigns', 'admin', {
    name: `Responses ${code}`,
    templateId: template!.id,
    channels: ['sms'],
    messageEn: '{firstName}, new treatment options at {clinic}: {link}',
    messageEs: '{firstName}, nuevas opciones de tratamiento en {clinic}: {link}',
    linkUrl: 'https://book.example.test/stimulator',
    throttlePerMinute: 2,
  });
  expect(created.statusCode, created.body).toBe(201);
  const draft = created.json<CampaignDetail>();
  const approved = await call('POST', `/api/campaigns/${draft.id}/approve`, 'manager', { contentHash: draft.contentHash });
  expect(approved.statusCode, approved.body).toBe(200);
  return approved.json<CampaignDetail>();
}

const simulate = async (from: string, body: string) => {
  const response = await call('POST', '/api/outbox/inbound-simulation', 'admin', { from, body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ answer: string | null; patientId: string | null; campaignId: string | null }>();
};
const recipient = async (campaignId: string, patientId: string) =>
  (await t.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaignId))).find(
    (row) => row.patientId === patientId,
  )!;

beforeAll(async () => {
  t = await createTestApp();
  // The sends here run on the test's own clock (`now`). Approval also enqueues a sweep, which this app's
  // worker would run on the real clock: once a minute had passed since `now` (a busy CI machine), it sent
  // the third text early and the STOP before her turn matched the campaign. So no worker runs here.
  await t.app.jobs.stop();
  deps = { config: t.config, mailer: createMailer(undefined, 'test@pathwell.test'), jobs: t.app.jobs };
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', zoneAtHour(12));
  await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
  now = new Date();
  for (const who of ['admin', 'manager', 'doctor', 'staff']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

describe('campaign responses', () => {
  let campaign: CampaignDetail;
  let ana: { id: string; mobile: string };
  let bea: { id: string; mobile: string };
  let cruz: { id: string; mobile: string };

  it('a STOP during sending stops that patient’s pending text; replies and PARAR are matched to the campaign', async () => {
    const code = 'M79.621';
    // Respa (the Doctor's patient), Respb (Spanish), Respc; two texts a minute.
    ana = await codedPatient(code, 'Respa', { doctorId: tokens.doctor!.id });
    bea = await codedPatient(code, 'Respb', { language: 'es' });
    cruz = await codedPatient(code, 'Respc');
    campaign = await approvedCampaign(code);
    await runCampaignSends(t.appDb, deps, now);
    expect((await recipient(campaign.id, cruz.id)).smsStatus).toBe('pending');

    // Respc answers STOP to an earlier message before her turn: her text is never sent.
    const stop = await simulate(cruz.mobile, 'STOP');
    expect(stop).toMatchObject({ answer: null, patientId: cruz.id, campaignId: null });
    expect(await recipient(campaign.id, cruz.id)).toMatchObject({ smsStatus: 'skipped', smsSkipReason: 'optedOut' });
    await runCampaignSends(t.appDb, deps, now);
    const sent = await t.db.select().from(outboxMessages).where(eq(outboxMessages.batchId, campaign.id));
    expect(sent.map((message) => message.patientId).sort()).toEqual([ana.id, bea.id].sort());

    // Respb (texted) answers PARAR: opted out of this campaign, confirmed in Spanish.
    const parar = await simulate(bea.mobile, 'Parar');
    expect(parar).toMatchObject({ patientId: bea.id, campaignId: campaign.id });
    expect(parar.answer).toContain('no recibirá más mensajes de texto');
    expect((await recipient(campaign.id, bea.id)).optedOutAt).not.toBeNull();

    // Respa replies in her own words: a reply to this campaign, kept encrypted.
    const reply = await simulate(ana.mobile, 'Can I come on Tuesday?');
    expect(reply).toMatchObject({ answer: null, patientId: ana.id, campaignId: campaign.id });
    expect((await recipient(campaign.id, ana.id)).repliedAt).not.toBeNull();
    const stored = await t.db.select().from(inboundTexts).where(eq(inboundTexts.patientId, ana.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body).not.toContain('Tuesday');
    expect(stored[0]!.campaignRecipientId).toBe((await recipient(campaign.id, ana.id)).id);
  });

  it('a short link counts each click and redirects; an unknown code is a 404 page', async () => {
    const code = (await recipient(campaign.id, ana.id)).linkCode!;
    for (let click = 0; click < 2; click++) {
      const response = await t.app.inject({ method: 'GET', url: `/l/${code}`, remoteAddress: nextIp() });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('https://book.example.test/stimulator');
    }
    expect(await recipient(campaign.id, ana.id)).toMatchObject({ clickCount: 2, clickedAt: expect.any(Date) });
    const unknown = await t.app.inject({ method: 'GET', url: '/l/NoSuchCode12', remoteAddress: nextIp() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This link is not valid');
  });

  it('counts a booking made after the message within the attribution window, and the funnel and responses show it all', async () => {
    const queuedAt = (await recipient(campaign.id, ana.id)).queuedAt!;
    // Respa books now (after her text); Respb's appointment was made the day before her text: not booked.
    await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: ana.id, startsAt: new Date(now.getTime() + 7 * DAY) });
    await t.db.insert(appointments).values({
      instanceId: riverside,
      patientId: bea.id,
      startsAt: new Date(now.getTime() + 8 * DAY),
      createdAt: new Date(queuedAt.getTime() - DAY),
    });
    // The provider's word: Respa's text delivered, Respb's failed.
    const sent = await t.db.select().from(outboxMessages).where(eq(outboxMessages.batchId, campaign.id));
    for (const message of sent) {
      await t.db
        .update(outboxMessages)
        .set({ status: message.patientId === ana.id ? 'delivered' : 'failed' })
        .where(eq(outboxMessages.id, message.id));
    }

    // Three recipients: sent 1 (Respa, delivered), failed 1 (Respb), skipped 1 (Respc, STOP), clicked 1,
    // replied 1 (Respa), opted out 1 (Respb), booked 1 (Respa).
    const detail = (await call('GET', `/api/campaigns/${campaign.id}`, 'admin')).json<CampaignDetail>();
    expect(detail.status).toBe('finished');
    expect(detail.funnel).toEqual({
      recipients: 3,
      sent: 1,
      delivered: 1,
      failed: 1,
      skipped: 1,
      pending: 0,
      clicked: 1,
      replied: 1,
      optedOut: 1,
      booked: 1,
    });

    const responses = await call('GET', `/api/campaigns/${campaign.id}/responses`, 'admin');
    expect(responses.statusCode, responses.body).toBe(200);
    const page = responses.json<{ totalRecords: number; data: CampaignResponse[] }>();
    expect(page.totalRecords).toBe(4);
    expect(page.data.map((row) => [row.kind, row.patientName]).sort()).toEqual([
      ['booked', 'Lucia Respa'],
      ['click', 'Lucia Respa'],
      ['optOut', 'Lucia Respb'],
      ['reply', 'Lucia Respa'],
    ]);
    const at = page.data.map((row) => row.at);
    expect(at).toEqual([...at].sort().reverse());
    expect(page.data.find((row) => row.kind === 'reply')!.detail).toBe('Can I come on Tuesday?');
    expect(page.data.find((row) => row.kind === 'optOut')!.detail).toBe('Parar');
    expect(page.data.find((row) => row.kind === 'booked')!.detail).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const replies = await call('GET', `/api/campaigns/${campaign.id}/responses?kind=reply`, 'admin');
    expect(replies.json().totalRecords).toBe(1);
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, campaign.id));
    expect(logs.some((log) => log.action === 'Viewed' && /responses/.test(log.description ?? ''))).toBe(true);

    const list = await call('GET', `/api/patients/patientscontrollist?campaignId=${campaign.id}`, 'admin');
    const respa = list.json().data.find((row: { patientId: string }) => row.patientId === ana.id);
    expect(respa).toMatchObject({ smsDelivery: 'delivered', bookedAt: expect.any(String), clickedAt: expect.any(String) });
  });

  it("results list each campaign's funnel; a Doctor's count only their own patients", async () => {
    // A second campaign with none of the Doctor's patients.
    await codedPatient('M79.622', 'Respd');
    const other = await approvedCampaign('M79.622');

    const all = await call('GET', '/api/campaigns/results', 'admin');
    expect(all.statusCode).toBe(200);
    const mine = all.json<{ data: CampaignSummary[] }>().data;
    expect(mine.map((row) => row.id)).toEqual(expect.arrayContaining([campaign.id, other.id]));
    expect(mine.find((row) => row.id === campaign.id)!.funnel).toMatchObject({ recipients: 3, sent: 1, booked: 1 });

    // The Doctor's view: only Respa counts (1 recipient: sent, delivered, clicked, replied, booked).
    const doctor = await call('GET', '/api/campaigns/results', 'doctor');
    expect(doctor.statusCode).toBe(200);
    const theirs = doctor.json<{ data: CampaignSummary[] }>().data.filter((row) => row.id === campaign.id || row.id === other.id);
    expect(theirs.map((row) => row.id)).toEqual([campaign.id]);
    expect(theirs[0]!.funnel).toEqual({
      recipients: 1,
      sent: 1,
      delivered: 1,
      failed: 0,
      skipped: 0,
      pending: 0,
      clicked: 1,
      replied: 1,
      optedOut: 0,
      booked: 1,
    });

    expect((await call('GET', '/api/campaigns/results?from=2099-01-01', 'admin')).json().data).toEqual([]);
    const backwards = await call('GET', '/api/campaigns/results?from=2026-02-01&to=2026-01-01', 'admin');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual({ to: 'dateRangeInvalid' });
  });

  it('the inbound simulation is for System Managers and Admins', async () => {
    const response = await call('POST', '/api/outbox/inbound-simulation', 'staff', { from: '5125550999', body: 'hi' });
    expect(response.statusCode).toBe(403);
    const bad = await call('POST', '/api/outbox/inbound-simulation', 'admin', { from: '', body: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ from: 'phoneInvalid', body: 'required' });
  });
});
