import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetail, CampaignRecipient, CampaignSummary } from '@pathwell/contracts/campaigns';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import { PatientPhoneType, phoneDigits } from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import {
  activityLogs,
  audienceTemplates,
  campaignRecipients,
  campaigns,
  codedVisitCodes,
  codedVisits,
  instances,
  patientPhoneNumbers,
  patients,
  smsOptOuts,
  userInstances,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, zoneAtHour, type TestApp } from '../../../test/test-app';

/** Campaign CRUD, approval and freezing, reads and access (issue #15 §3, decision 0051). */
let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorId: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

interface PatientSpec {
  lastName: string;
  firstName?: string;
  email?: string | null;
  mobile?: string | null;
  language?: 'en' | 'es';
  enableText?: boolean;
  doctorId?: string | null;
}

/** A patient with one imported visit coded `code`. */
async function codedPatient(instanceId: string, code: string, spec: PatientSpec) {
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      firstName: spec.firstName ?? 'Rosa',
      lastName: spec.lastName,
      dateOfBirth: '1965-03-02',
      email: spec.email === undefined ? `${spec.lastName.toLowerCase()}@example.test` : spec.email,
      preferredLanguage: spec.language ?? 'en',
      enableText: spec.enableText ?? true,
      doctorId: spec.doctorId ?? null,
    })
    .returning({ id: patients.id });
  const patientId = row!.id;
  if (spec.mobile) {
    await t.db.insert(patientPhoneNumbers).values({
      instanceId,
      patientId,
      phoneType: PatientPhoneType.MOBILE,
      number: spec.mobile,
      digits: phoneDigits(spec.mobile),
      isPrimary: true,
    });
  }
  const [visit] = await t.db
    .insert(codedVisits)
    .values({ instanceId, patientId, visitDate: '2025-01-15', source: 'import', dedupeKey: `test:${patientId}`, codes: [code] })
    .returning({ id: codedVisits.id });
  await t.db
    .insert(codedVisitCodes)
    .values({ instanceId, codedVisitId: visit!.id, code, kind: 'diagnosis', patientId, visitDate: '2025-01-15' });
  return patientId;
}

async function template(instanceId: string, code: string) {
  const [row] = await t.db
    .insert(audienceTemplates)
    .values({ instanceId, kind: 'campaign', name: `Pull ${code}`, rule: audienceRuleSchema.parse({ codes: [code] }) })
    .returning({ id: audienceTemplates.id });
  return row!.id;
}

const input = (templateId: string, extra: object = {}) => ({
  name: 'Stimulator candidates',
  templateId,
  channels: ['sms', 'email'],
  messageEn: 'Hi {firstName}, {clinic} and {provider} would like to see you. {instruction} {link}',
  messageEs: 'Hola {firstName}, {clinic} y {provider} quieren verle. {instruction} {link}',
  subjectEn: 'A visit with {provider}',
  subjectEs: 'Una visita con {provider}',
  instructionEn: 'Book here:',
  instructionEs: 'Pida cita aquí:',
  linkUrl: 'https://book.example.test/riverside',
  throttlePerMinute: 60,
  ...extra,
});

async function create(templateId: string, extra: object = {}, as = 'admin') {
  const response = await call('POST', '/api/campaigns', as, input(templateId, extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CampaignDetail>();
}

/** Approves as `as`, with the content digest `as` sees now unless one is given (a stale review). */
async function approve(campaignId: string, as: string, contentHash?: string) {
  const hash = contentHash ?? (await call('GET', `/api/campaigns/${campaignId}`, 'admin')).json<CampaignDetail>().contentHash;
  return call('POST', `/api/campaigns/${campaignId}/approve`, as, { contentHash: hash });
}

async function recipients(campaignId: string, as = 'admin') {
  const response = await call('GET', `/api/patients/patientscontrollist?campaignId=${campaignId}&pageSize=100`, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ totalRecords: number; data: CampaignRecipient[] }>();
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'manager', 'staff', 'doctor', 'admin2', 'approver']) {
    tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  }
  // The demo keeps texts off; these campaigns text (a clinic with texts off is tested on its own).
  await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
  doctorId = tokens.doctor!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('approval', () => {
  it('the author of a clinic with several admins may not approve; another admin may, once; Staff and Doctors may not', async () => {
    await codedPatient(riverside, 'M79.601', { lastName: 'Approvala', mobile: '(512) 555-0301' });
    const campaign = await create(await template(riverside, 'M79.601'));
    expect(campaign).toMatchObject({ status: 'draft', approveBlockedReason: 'author' });
    expect(campaign.can).toMatchObject({ edit: true, approve: false, delete: true, finish: false, archive: false });

    const own = await approve(campaign.id, 'admin');
    expect(own.statusCode).toBe(403);
    expect(own.json().messageKey).toBe('campaignApproveOwn');
    for (const who of ['staff', 'doctor']) {
      expect((await approve(campaign.id, who)).statusCode).toBe(403);
      expect((await call('GET', `/api/campaigns/${campaign.id}`, who)).statusCode).toBe(403);
    }
    // The manager sees the same campaign as approvable.
    const seen = (await call('GET', `/api/campaigns/${campaign.id}`, 'manager')).json<CampaignDetail>();
    expect(seen).toMatchObject({ approveBlockedReason: null, can: { approve: true } });

    const approved = await approve(campaign.id, 'manager', seen.contentHash);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<CampaignDetail>()).toMatchObject({
      status: 'approved',
      approvedByName: 'Morgan Reyes',
      approveBlockedReason: 'status',
      can: { edit: false, approve: false, finish: true, toggleText: true, delete: true },
      funnel: { recipients: 1, pending: 1 },
    });
    // Approving again freezes nothing new (409), and an approved campaign is no longer edited.
    expect((await approve(campaign.id, 'manager')).statusCode).toBe(409);
    const edit = await call('PUT', `/api/campaigns/${campaign.id}`, 'admin', input(campaign.templateId!));
    expect(edit.statusCode).toBe(409);
    expect(edit.json().messageKey).toBe('campaignNotDraft');
    expect((await recipients(campaign.id)).totalRecords).toBe(1);
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, campaign.id));
    expect(logs.some((log) => /Approved campaign/.test(log.description ?? ''))).toBe(true);
  });

  it('the only admin of a clinic may not approve their own campaign either (decision 0064)', async () => {
    const [solo] = await t.db.insert(instances).values({ name: 'Solo Pain Clinic' }).returning();
    await setInstanceSetting(t.db, solo!.id, 'useCodePull', 'true');
    const [demo] = await t.db.select().from(users).where(eq(users.email, 'admin@pathwell.demo'));
    const [alone] = await t.db
      .insert(users)
      .values({
        email: 'solo.admin@pathwell.test',
        firstName: 'Sol',
        lastName: 'Admin',
        role: RoleCode.Admin,
        instanceId: solo!.id,
        passwordHash: demo!.passwordHash,
        status: 'active',
      })
      .returning();
    await t.db.insert(userInstances).values({ userId: alone!.id, instanceId: solo!.id });
    tokens.solo = await signIn(t.app, 'solo.admin@pathwell.test');
    await codedPatient(solo!.id, 'M79.602', { lastName: 'Soloist', mobile: '(512) 555-0302' });
    await setInstanceSetting(t.db, solo!.id, 'enableSms', 'true');
    const campaign = await create(await template(solo!.id, 'M79.602'), {}, 'solo');
    expect(campaign).toMatchObject({ approveBlockedReason: 'author', can: { approve: false } });
    const own = await call('POST', `/api/campaigns/${campaign.id}/approve`, 'solo', { contentHash: campaign.contentHash });
    expect(own.statusCode).toBe(403);
    expect(own.json().messageKey).toBe('campaignApproveOwn');
  });

  it("an admin who changed a colleague's draft may not approve it, and approval binds to the content reviewed", async () => {
    await codedPatient(riverside, 'M79.607', { lastName: 'Bindera', mobile: '(512) 555-0331' });
    const templateId = await template(riverside, 'M79.607');
    const draft = await create(templateId);
    // The System Manager opens the draft for review: this is the content they approve.
    const reviewed = (await call('GET', `/api/campaigns/${draft.id}`, 'manager')).json<CampaignDetail>();
    expect(reviewed.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(reviewed.contentHash).toBe(draft.contentHash);

    // A second admin rewrites the link and the message to their own, then tries to approve alone.
    const rewritten = await call(
      'PUT',
      `/api/campaigns/${draft.id}`,
      'approver',
      input(templateId, { messageEn: 'Hi {firstName}, confirm your details: {link}', linkUrl: 'https://evil.example/phish' }),
    );
    expect(rewritten.statusCode, rewritten.body).toBe(200);
    const theirs = rewritten.json<CampaignDetail>();
    expect(theirs).toMatchObject({ approveBlockedReason: 'author', can: { approve: false } });
    expect(theirs.contentHash).not.toBe(reviewed.contentHash);
    const own = await approve(draft.id, 'approver', theirs.contentHash);
    expect(own.statusCode).toBe(403);
    expect(own.json().messageKey).toBe('campaignApproveOwn');
    // The author is an editor too.
    expect((await approve(draft.id, 'admin', theirs.contentHash)).statusCode).toBe(403);
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, draft.id));
    expect(row!.editorIds).toEqual([tokens.admin!.id, tokens.approver!.id]);

    // The manager approves with the digest of what they reviewed before the rewrite: 409, review again.
    const stale = await approve(draft.id, 'manager', reviewed.contentHash);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().messageKey).toBe('campaignContentChanged');
    expect((await t.db.select().from(campaigns).where(eq(campaigns.id, draft.id)))[0]!.status).toBe('draft');
    // A changed audience rule changes the digest too.
    await t.db
      .update(audienceTemplates)
      .set({ rule: audienceRuleSchema.parse({ codes: ['M79.607', 'M79.608'] }) })
      .where(eq(audienceTemplates.id, templateId));
    expect((await approve(draft.id, 'manager', theirs.contentHash)).json().messageKey).toBe('campaignContentChanged');
    const malformed = await call('POST', `/api/campaigns/${draft.id}/approve`, 'manager', { contentHash: 'abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toMatchObject({ contentHash: 'invalid' });

    // Reviewed again, the rewritten content is approved by the one who neither wrote nor changed it.
    const again = (await call('GET', `/api/campaigns/${draft.id}`, 'manager')).json<CampaignDetail>();
    expect(again).toMatchObject({ approveBlockedReason: null, linkUrl: 'https://evil.example/phish' });
    const approved = await approve(draft.id, 'manager', again.contentHash);
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it('a campaign using a channel the clinic turned off is flagged and cannot be approved', async () => {
    await codedPatient(riverside, 'M79.609', { lastName: 'Offa', mobile: '(512) 555-0341' });
    const templateId = await template(riverside, 'M79.609');
    await setInstanceSetting(t.db, riverside, 'enableSms', 'false');
    try {
      const preview = await call('POST', '/api/campaigns/audience', 'admin', { templateId, channels: ['sms', 'email'] });
      expect(preview.json()).toMatchObject({ count: 1, channelsOff: ['sms'] });
      const draft = await create(templateId);
      expect(draft.channelsOff).toEqual(['sms']);
      const seen = (await call('GET', `/api/campaigns/${draft.id}`, 'manager')).json<CampaignDetail>();
      expect(seen).toMatchObject({ approveBlockedReason: 'channelOff', can: { approve: false } });
      const refused = await approve(draft.id, 'manager', seen.contentHash);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().messageKey).toBe('campaignTextsOff');
      await setInstanceSetting(t.db, riverside, 'enableEmail', 'false');
      const emailOnly = await create(templateId, {
        channels: ['email'],
        messageEn: 'Hi {firstName}',
        messageEs: 'Hola {firstName}',
      });
      expect((await approve(emailOnly.id, 'manager')).json().messageKey).toBe('campaignEmailsOff');
      expect((await t.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, draft.id))).length).toBe(0);
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
      await setInstanceSetting(t.db, riverside, 'enableEmail', 'true');
    }
  });
});

describe('what the approver sees before approving', () => {
  it('pages through everyone approval would message, by name; audited; 404 elsewhere, 403 for Staff', async () => {
    const code = 'M79.610';
    for (const lastName of ['Pagec', 'Pagea', 'Pageb'])
      await codedPatient(riverside, code, { lastName, mobile: null, email: `${lastName}@example.test` });
    await codedPatient(riverside, code, { lastName: 'Paged', mobile: null, email: null });
    const draft = await create(await template(riverside, code));
    const first = await call('GET', `/api/campaigns/${draft.id}/audience?pageSize=2`, 'manager');
    expect(first.statusCode, first.body).toBe(200);
    // Texts and emails: the patient with neither address is not messaged.
    expect(first.json()).toMatchObject({ totalRecords: 3 });
    expect(first.json<{ data: { lastName: string }[] }>().data.map((p) => p.lastName)).toEqual(['Pagea', 'Pageb']);
    const second = await call('GET', `/api/campaigns/${draft.id}/audience?pageSize=2&pageNumber=1`, 'manager');
    expect(second.json<{ totalRecords: number; data: { lastName: string }[] }>()).toMatchObject({
      totalRecords: 3,
      data: [expect.objectContaining({ lastName: 'Pagec' })],
    });
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, draft.id));
    expect(logs.some((log) => /Viewed 2 of the 3 patients/.test(log.description ?? ''))).toBe(true);
    expect((await call('GET', `/api/campaigns/${draft.id}/audience?pageSize=0`, 'manager')).statusCode).toBe(400);
    expect((await call('GET', `/api/campaigns/${draft.id}/audience`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/campaigns/${draft.id}/audience`, 'staff')).statusCode).toBe(403);
  });

  it('an approved campaign waiting for its time or for sending hours says so', async () => {
    await codedPatient(riverside, 'M79.611', { lastName: 'Waita', mobile: '(512) 555-0351' });
    const templateId = await template(riverside, 'M79.611');
    const later = new Date(Date.now() + 3 * 86_400_000);
    const scheduled = await create(templateId, { scheduledAt: later.toISOString() });
    expect(scheduled.waiting).toBeNull();
    const approved = (await approve(scheduled.id, 'manager')).json<CampaignDetail>();
    expect(approved.waiting).toMatchObject({ reason: 'scheduled' });
    expect(new Date(approved.waiting!.until).getTime()).toBeGreaterThanOrEqual(later.getTime());
    const listed = (await call('GET', '/api/campaigns?status=approved&pageSize=100', 'admin')).json<{
      data: CampaignSummary[];
    }>();
    expect(listed.data.find((c) => c.id === scheduled.id)?.waiting).toMatchObject({ reason: 'scheduled' });

    // 2:00 in the clinic: outside the 8:00–21:00 sending hours, sending starts at 8:00.
    await setInstanceSetting(t.db, riverside, 'timeZoneId', zoneAtHour(2));
    try {
      const now = await create(templateId);
      const waiting = (await approve(now.id, 'manager')).json<CampaignDetail>().waiting;
      expect(waiting).toMatchObject({ reason: 'sendingHours' });
      const hours = (new Date(waiting!.until).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(5);
      expect(hours).toBeLessThanOrEqual(6);
    } finally {
      await setInstanceSetting(t.db, riverside, 'timeZoneId', 'America/Chicago');
    }
  });
});

describe('freezing the audience at approval', () => {
  it('copies the rule and each recipient with language, addresses, provider, link code and channel status; later patients do not join', async () => {
    const code = 'M79.603';
    // Four patients with the code, in name order: Freeza (English, text and email, the doctor's patient),
    // Freezb (Spanish, texts off → text skipped patientTextOff), Freezc (STOP from her number → text
    // skipped optedOut, email pending), Freezd (no email → email skipped noAddress).
    await codedPatient(riverside, code, { lastName: 'Freeza', firstName: 'Ana', mobile: '(512) 555-0311', doctorId });
    await codedPatient(riverside, code, { lastName: 'Freezb', language: 'es', mobile: '(512) 555-0312', enableText: false });
    await codedPatient(riverside, code, { lastName: 'Freezc', mobile: '(512) 555-0313' });
    await codedPatient(riverside, code, { lastName: 'Freezd', mobile: '(512) 555-0314', email: null });
    await t.db.insert(smsOptOuts).values({ instanceId: riverside, phone: '+15125550313', optedOut: true, keyword: 'STOP' });
    const templateId = await template(riverside, code);

    const audience = await call('POST', '/api/campaigns/audience', 'admin', { templateId, channels: ['sms', 'email'] });
    expect(audience.statusCode, audience.body).toBe(200);
    expect(audience.json().count).toBe(4);

    const campaign = await create(templateId);
    expect(campaign.preview.en).toContain('Hi Maria, Riverside Spine & Pain and Dr. Rivera would like to see you. Book here:');
    expect(campaign.preview.en).toMatch(/\/l\/[A-Za-z0-9_-]{12} Reply STOP to opt out\.$/);
    expect(campaign.preview.es).toContain('Hola Maria');
    expect((await approve(campaign.id, 'manager')).statusCode).toBe(200);

    const list = await recipients(campaign.id);
    expect(list.totalRecords).toBe(4);
    expect(list.data.map((r) => [r.patientName, r.language, r.smsStatus, r.emailStatus, r.skipReason])).toEqual([
      ['Ana Freeza', 'en', 'pending', 'pending', null],
      ['Rosa Freezb', 'es', 'skipped', 'pending', 'patientTextOff'],
      ['Rosa Freezc', 'en', 'skipped', 'pending', 'optedOut'],
      ['Rosa Freezd', 'en', 'pending', 'skipped', 'noAddress'],
    ]);
    expect(list.data[0]).toMatchObject({ phoneMasked: '•••0311', emailMasked: 'f•••@example.test' });
    const rows = await t.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id))
      .orderBy(campaignRecipients.position);
    expect(rows.map((row) => row.position)).toEqual([0, 1, 2, 3]);
    expect(rows[0]).toMatchObject({ phone: '+15125550311', providerName: 'Daniela Ortiz', matchedCodes: [code] });
    expect(rows.every((row) => /^[A-Za-z0-9_-]{12}$/.test(row.linkCode ?? ''))).toBe(true);
    expect(new Set(rows.map((row) => row.linkCode)).size).toBe(4);
    const [stored] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(stored).toMatchObject({ recipientCount: 4, rule: expect.objectContaining({ codes: [code] }) });

    // The preview keeps its example patient and link (no recipient's name or short link is shown, so
    // the page's refresh while sending reads no patient), with the first recipient's provider.
    const detail = (await call('GET', `/api/campaigns/${campaign.id}`, 'admin')).json<CampaignDetail>();
    expect(detail.preview.en).toContain('Hi Maria, Riverside Spine & Pain and Daniela Ortiz');
    expect(detail.preview.en).not.toContain(rows[0]!.linkCode!);

    // A fifth coded patient after approval is in the template's audience but not on the campaign.
    await codedPatient(riverside, code, { lastName: 'Freeze', mobile: '(512) 555-0315' });
    expect((await call('POST', '/api/campaigns/audience', 'admin', { templateId, channels: ['sms'] })).json().count).toBe(3);
    expect((await recipients(campaign.id)).totalRecords).toBe(4);
    const skipped = await call('GET', `/api/patients/patientscontrollist?campaignId=${campaign.id}&status=skipped`, 'admin');
    expect(skipped.json().totalRecords).toBe(0);
  });
});

describe('changing, deleting and archiving', () => {
  it('edits a draft; deletes before anything was queued; after a send deletion is 409 and archive works', async () => {
    await codedPatient(riverside, 'M79.604', { lastName: 'Deleta', mobile: '(512) 555-0321' });
    const templateId = await template(riverside, 'M79.604');
    const draft = await create(templateId);
    const edited = await call(
      'PUT',
      `/api/campaigns/${draft.id}`,
      'admin',
      input(templateId, { name: 'Renamed', throttlePerMinute: 5 }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<CampaignDetail>()).toMatchObject({ name: 'Renamed', throttlePerMinute: 5 });
    expect((await call('DELETE', `/api/campaigns/${draft.id}`, 'admin')).statusCode).toBe(204);
    expect((await call('GET', `/api/campaigns/${draft.id}`, 'admin')).statusCode).toBe(404);
    expect(
      (await call('GET', '/api/campaigns?pageSize=100', 'admin')).json<{ data: CampaignSummary[] }>().data.map((c) => c.id),
    ).not.toContain(draft.id);

    const sent = await create(templateId);
    expect((await approve(sent.id, 'manager')).statusCode).toBe(200);
    // As the sweep would: the recipient's text was queued.
    await t.db
      .update(campaignRecipients)
      .set({ smsStatus: 'queued', queuedAt: new Date() })
      .where(eq(campaignRecipients.campaignId, sent.id));
    expect((await call('GET', `/api/campaigns/${sent.id}`, 'admin')).json<CampaignDetail>().can).toMatchObject({
      delete: false,
      archive: true,
    });
    const refused = await call('DELETE', `/api/campaigns/${sent.id}`, 'admin');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messageKey).toBe('campaignAlreadySending');
    const archived = await call('POST', `/api/campaigns/${sent.id}/archive`, 'admin');
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json<CampaignDetail>()).toMatchObject({ status: 'archived', finishedAt: expect.any(String) });
    expect((await call('POST', `/api/campaigns/${sent.id}/finish`, 'admin')).statusCode).toBe(409);
    const listed = await call('GET', '/api/campaigns?status=archived', 'admin');
    expect(listed.json<{ data: CampaignSummary[] }>().data.map((c) => c.id)).toContain(sent.id);
  });
});

describe('validation, tenancy and access', () => {
  it('answers 400 with field errors', async () => {
    const templateId = await template(riverside, 'M79.605');
    const unknownField = await call('POST', '/api/campaigns', 'admin', input(templateId, { messageEn: 'Hi {lastName}' }));
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().fields).toMatchObject({ messageEn: 'mergeFieldUnknown' });
    const noSpanish = await call('POST', '/api/campaigns', 'admin', input(templateId, { messageEs: '' }));
    expect(noSpanish.statusCode).toBe(400);
    expect(noSpanish.json().fields).toMatchObject({ messageEs: 'required' });
    const noSubject = await call('POST', '/api/campaigns', 'admin', input(templateId, { channels: ['email'], subjectEn: null }));
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().fields).toMatchObject({ subjectEn: 'required' });
    const noLink = await call('POST', '/api/campaigns', 'admin', input(templateId, { linkUrl: null }));
    expect(noLink.json().fields).toMatchObject({ linkUrl: 'required' });
    const foreign = await template(lakeside, 'M79.605');
    const otherClinic = await call('POST', '/api/campaigns', 'admin', input(foreign));
    expect(otherClinic.statusCode).toBe(400);
    expect(otherClinic.json().fields).toEqual({ templateId: 'optionInvalid' });
  });

  it("another clinic's user gets 404 for this clinic's campaign", async () => {
    const campaign = await create(await template(riverside, 'M79.606'));
    for (const [method, url] of [
      ['GET', `/api/campaigns/${campaign.id}`],
      ['POST', `/api/campaigns/${campaign.id}/approve`],
      ['GET', `/api/campaigns/${campaign.id}/audience`],
      ['DELETE', `/api/campaigns/${campaign.id}`],
      ['GET', `/api/campaigns/${campaign.id}/responses`],
      ['GET', `/api/patients/patientscontrollist?campaignId=${campaign.id}`],
    ] as const) {
      const response = await call(method, url, 'admin2', method === 'POST' ? { contentHash: campaign.contentHash } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const [still] = await t.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, campaign.id)));
    expect(still).toMatchObject({ status: 'draft', deletedAt: null });
  });

  it('Staff get 403 everywhere; Doctors only see results; a clinic without campaigns answers 403 featureOff', async () => {
    expect((await call('GET', '/api/campaigns', 'staff')).statusCode).toBe(403);
    expect((await call('GET', '/api/campaigns/results', 'staff')).statusCode).toBe(403);
    expect((await call('GET', '/api/campaigns', 'doctor')).statusCode).toBe(403);
    expect((await call('GET', '/api/campaigns/results', 'doctor')).statusCode).toBe(200);
    await setInstanceSetting(t.db, lakeside, 'useCodePull', 'false');
    try {
      for (const url of ['/api/campaigns', '/api/campaigns/results']) {
        const response = await call('GET', url, 'admin2');
        expect(response.statusCode).toBe(403);
        expect(response.json().messageKey).toBe('featureOff');
      }
    } finally {
      await setInstanceSetting(t.db, lakeside, 'useCodePull', 'true');
    }
  });
});
