import { asc, eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetail } from '@pathwell/contracts/campaigns';
import { clinicIsoDate, clinicMdy, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import type { CreatedIntake } from '@pathwell/contracts/intake';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import type { CreatedPatientLink } from '@pathwell/contracts/patient-links';
import { PatientPhoneType, phoneDigits } from '@pathwell/contracts/patients';
import {
  appointments,
  audienceTemplates,
  codedVisitCodes,
  codedVisits,
  instances,
  outboxMessages,
  patientPhoneNumbers,
  patients,
} from '../../db/schema';
import { runCampaignSends } from '../outreach/campaign-sender';
import { runDuePathwaySteps } from '../pathways/pathway-runner';
import { createMailer } from './providers';
import { openBody } from './outbox.service';
import {
  createTestApp,
  nextIp,
  setInstanceSetting,
  signIn,
  TEST_SECRET_CONFIG,
  zoneAtHour,
  type TestApp,
} from '../../../test/test-app';

/**
 * Every route that sends a link, called with a forged Host, Origin, X-Forwarded-* and Referer: the stored
 * messages carry the configured public URL and nothing the caller named (issue #24 §3, decision 0064).
 */
const PUBLIC_URL = 'https://clinic.pathwell.example';
const FORGED = {
  host: 'evil.example',
  origin: 'http://evil.example',
  referer: 'http://evil.example/patients',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'http',
};
const HOUR = 3_600_000;

let t: TestApp;
let riverside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

const call = (method: 'GET' | 'POST', url: string, as: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...FORGED, ...(as ? tokens[as]!.headers : {}) },
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

let counter = 0;
/** A patient with an email, a mobile, a coded visit and an appointment at noon ten clinic days on. */
async function newPatient() {
  counter += 1;
  const email = `forged${counter}@example.test`;
  const mobile = `(512) 555-${String(7100 + counter)}`;
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Rosa',
      lastName: `Forged${counter}`,
      dateOfBirth: '1961-04-09',
      email,
      preferredLanguage: 'en',
    })
    .returning({ id: patients.id });
  const patientId = row!.id;
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: riverside,
    patientId,
    phoneType: PatientPhoneType.MOBILE,
    number: mobile,
    digits: phoneDigits(mobile),
    isPrimary: true,
  });
  const [year, month, date] = clinicIsoDate(Date.now() + (10 + counter) * 86_400_000, 'America/Chicago')
    .split('-')
    .map(Number);
  const startsAt = instantOfClinicTime(year!, month!, date!, 'America/Chicago', 12);
  const [visit] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId, reason: 'follow_up', startsAt })
    .returning({ id: appointments.id });
  return { patientId, appointmentId: visit!.id, startsAt, email, phone: `+1${phoneDigits(mobile)}` };
}

/** The stored messages to these addresses: at least one, and every address in them on the public URL. */
async function expectOnlyPublicLinks(recipients: string[], { withLink = true } = {}) {
  const rows = await t.db
    .select()
    .from(outboxMessages)
    .where(or(...recipients.map((recipient) => eq(outboxMessages.recipient, recipient))))
    .orderBy(asc(outboxMessages.createdAt));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const text = `${row.subject ?? ''}\n${openBody(TEST_SECRET_CONFIG, row)}`;
    expect(text).not.toContain('evil.example');
    const urls = text.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
    if (withLink) expect(urls.length, `${row.template}: ${text}`).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${PUBLIC_URL}/`), `${row.template}: ${url}`).toBe(true);
  }
  return rows;
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  for (const key of ['enableEmail', 'enableSms', 'enableShotConsent', 'enableDigitalShotConsent']) {
    await setInstanceSetting(t.db, riverside, key, 'true');
  }
  for (const who of ['staff', 'admin', 'manager']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
});
afterAll(async () => {
  await t?.close();
});

describe('links in messages are built on the configured public URL only', () => {
  it('password reset, set-password (welcome) and "already registered" emails', async () => {
    expect((await call('POST', '/api/users/forgetPassword', null, { email: 'doctor@pathwell.demo' })).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/users', null, { email: 'doctor@pathwell.demo', name: 'Someone', password: 'Strong#Pass1' }))
        .statusCode,
    ).toBe(201);
    const invited = await call('POST', '/api/users/register', 'admin', {
      firstName: 'Nina',
      lastName: 'Forged',
      email: 'nina.forged@pathwell.test',
      role: 'Staff',
      isParent: false,
      isChild: false,
      clinicIds: [],
      twoFactorEnabled: false,
      isActive: true,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const resent = await call('POST', '/api/users/sendwelcomeemail', 'admin', {
      id: invited.json<{ id: string }>().id,
      role: 'Staff',
      originUrl: 'http://evil.example',
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const sent = await expectOnlyPublicLinks(['doctor@pathwell.demo', 'nina.forged@pathwell.test']);
    expect(new Set(sent.map((row) => row.template))).toEqual(new Set(['reset-password', 'already-registered', 'welcome']));
  });

  it('questionnaire links, the emailed sign-in code and the patient asking to close their account', async () => {
    const who = await newPatient();
    const created = await call('POST', '/api/patient-links', 'staff', { patientId: who.patientId, formCode: 11, send: 'email' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<CreatedPatientLink>().url.startsWith(`${PUBLIC_URL}/patients/phq9/`)).toBe(true);
    const token = created.json<CreatedPatientLink>().token;
    const code = await call('POST', `/api/patient-links/${token}/emailcode`, null, {});
    expect(code.statusCode, code.body).toBe(200);

    // The intake's close-account request is an open route: the caller picks every header.
    const intake = await call('POST', '/api/patients/intake', 'staff', {
      patientId: who.patientId,
      appointmentId: who.appointmentId,
      send: ['email', 'sms'],
    });
    expect(intake.statusCode, intake.body).toBe(201);
    expect(intake.json<CreatedIntake>().url.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    const intakeToken = intake.json<CreatedIntake>().url.split('/intake/')[1]!.split('/')[0]!;
    const verified = await call('POST', `/api/patient-links/${intakeToken}/verify`, null, {
      lastName: `Forged${counter}`,
      dateOfBirth: '04/09/1961',
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const closing = await t.app.inject({
      method: 'POST',
      url: `/api/intake/${intakeToken}/close-account`,
      headers: { ...FORGED, authorization: `Bearer ${verified.json<{ accessToken: string }>().accessToken}` },
      payload: { language: 'en' },
      remoteAddress: nextIp(),
    });
    expect(closing.statusCode, closing.body).toBe(200);

    const sent = await expectOnlyPublicLinks(
      [who.email, who.phone].filter((to) => to !== null),
      { withLink: false },
    );
    const templates = sent.map((row) => row.template);
    for (const template of ['patient-link', 'link-code', 'intake', 'close-account']) expect(templates).toContain(template);
    for (const row of sent.filter((message) => message.template !== 'link-code')) {
      expect(openBody(TEST_SECRET_CONFIG, row)).toContain(`${PUBLIC_URL}/`);
    }
  });

  it('consent links, pain journal links and bulk intake', async () => {
    const who = await newPatient();
    const consent = await call('POST', '/api/patients/consentlinks', 'staff', {
      patientId: who.patientId,
      kinds: ['shotConsent'],
      send: ['email', 'sms'],
    });
    expect(consent.statusCode, consent.body).toBe(201);
    const journal = await call('POST', `/api/patients/${who.patientId}/painjournal/send`, 'staff', { send: ['email', 'sms'] });
    expect(journal.statusCode, journal.body).toBe(201);
    const bulk = await call('POST', '/api/patients/bulkintakenotification', 'staff', {
      date: clinicMdy(who.startsAt, 'America/Chicago'),
      send: ['email', 'sms'],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    const templates = (await expectOnlyPublicLinks([who.email, who.phone])).map((row) => row.template);
    for (const template of ['consent', 'pain-journal', 'intake']) expect(templates).toContain(template);
  });

  it('pathway steps and campaigns (sent by the sweeps, started from forged requests)', async () => {
    const who = await newPatient();
    const deps = {
      config: t.config,
      mailer: createMailer(undefined, 'test@pathwell.test'),
      jobs: t.app.jobs,
      events: t.app.events,
    };
    const pathway = await call('POST', '/api/pathways', 'admin', {
      name: 'Forged host pathway',
      trigger: 'manual',
      steps: [{ dayOffset: 0, kind: 'pro', formCode: 11, reminderDays: [] }],
    });
    expect(pathway.statusCode, pathway.body).toBe(201);
    const enrolled = await call('POST', `/api/pathways/${pathway.json<{ id: string }>().id}/enrol`, 'staff', {
      patientId: who.patientId,
      anchorAt: new Date().toISOString(),
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    await runDuePathwaySteps(t.appDb, deps, new Date(Date.now() + 60_000));

    // The campaign's patient: coded, so the template's rule finds them.
    const [visit] = await t.db
      .insert(codedVisits)
      .values({
        instanceId: riverside,
        patientId: who.patientId,
        visitDate: '2025-02-01',
        source: 'import',
        dedupeKey: `f:${who.patientId}`,
        codes: ['Z99.89'],
      })
      .returning({ id: codedVisits.id });
    await t.db.insert(codedVisitCodes).values({
      instanceId: riverside,
      codedVisitId: visit!.id,
      code: 'Z99.89',
      kind: 'diagnosis',
      patientId: who.patientId,
      visitDate: '2025-02-01',
    });
    const [template] = await t.db
      .insert(audienceTemplates)
      .values({ instanceId: riverside, kind: 'campaign', name: 'Forged', rule: audienceRuleSchema.parse({ codes: ['Z99.89'] }) })
      .returning({ id: audienceTemplates.id });
    // The app's own sweep (woken by the approval) runs on the real clock: at 2:00 in the clinic it sends
    // nothing; this test's run is at noon there.
    await setInstanceSetting(t.db, riverside, 'timeZoneId', zoneAtHour(2));
    const created = await call('POST', '/api/campaigns', 'admin', {
      name: 'Forged host campaign',
      templateId: template!.id,
      channels: ['sms', 'email'],
      messageEn: 'Hi {firstName}, book at {clinic}: {link}',
      messageEs: 'Hola {firstName}, pida cita en {clinic}: {link}',
      subjectEn: 'Time for a check-up',
      subjectEs: 'Es hora de una revisión',
      linkUrl: 'https://book.example.test/',
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json<CampaignDetail>();
    const approved = await call('POST', `/api/campaigns/${campaign.id}/approve`, 'manager', {
      contentHash: campaign.contentHash,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await runCampaignSends(t.appDb, deps, new Date(Date.now() + 10 * HOUR));

    const templates = (await expectOnlyPublicLinks([who.email, who.phone])).map((row) => row.template);
    for (const kind of ['pathway-pro', 'campaign']) expect(templates).toContain(kind);
  });
});
