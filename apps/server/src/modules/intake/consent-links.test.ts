import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentLinkView, CreatedConsentLink, PatientConsents } from '@pathwell/contracts/consent-links';
import type { LinkStatusResponse } from '@pathwell/contracts/patient-links';
import { activityLogs, appointments, instances, patientConsents, patientLinks, patients } from '../../db/schema';
import { createTestApp, latestEmailTo, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';

/** Consents signed on their own: the injection consent and an expired agreement signed again (decision 0036). */
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const WHO = { lastName: 'Valdez', dateOfBirth: '07/30/1971' };
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const signature = (image = `data:image/png;base64,${PNG_1X1}`) => ({ image, signedAt: new Date().toISOString() });

const staff = (method: 'GET' | 'POST', url: string, payload?: object, as = 'staff') =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload, remoteAddress: nextIp() });
const open = (method: 'GET' | 'POST', url: string, payload?: object, accessToken?: string) =>
  t.app.inject({
    method,
    url,
    payload,
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    remoteAddress: nextIp(),
  });

async function newPatient(instanceId: string, email: string | null = 'jorge.valdez@example.test') {
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId, firstName: 'Jorge', lastName: 'Valdez', dateOfBirth: '1971-07-30', email, preferredLanguage: 'es' })
    .returning({ id: patients.id });
  return patient!.id;
}
const tokenOf = (url: string) => url.split('/').at(-1)!;
async function verified(token: string) {
  const response = await open('POST', `/api/patient-links/${token}/verify`, WHO);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}
async function send(body: object, as = 'staff') {
  const response = await staff('POST', '/api/patients/consentlinks', body, as);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedConsentLink>();
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'doctor', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  for (const key of ['enableShotConsent', 'enableDigitalShotConsent']) await setInstanceSetting(t.db, riverside, key, 'true');
});
afterAll(async () => {
  await t?.close();
});

describe('the injection consent, signed on a phone', () => {
  it('is sent by email in the patient language, read after the identity check, signed once, and listed for staff', async () => {
    const patientId = await newPatient(riverside);
    const link = await send({ patientId, kinds: ['shotConsent'], send: ['email'] });
    expect(link.url).toMatch(/\/patients\/digitalconsentform\/[A-Za-z0-9_-]{43}$/);
    expect(link.sent).toEqual([{ channel: 'email', status: expect.any(String) }]);
    const email = await latestEmailTo(t.db, 'jorge.valdez@example.test');
    expect(email.subject).toBe('Riverside Spine & Pain: un consentimiento para firmar');
    expect(email.body).toContain(link.url);
    const token = tokenOf(link.url);

    const status = await open('GET', `/api/patient-links/${token}/status`);
    expect(status.json<LinkStatusResponse>()).toMatchObject({
      status: 'active',
      formTitle: { en: 'Consent to sign' },
      suggestedLanguage: 'es',
    });
    expect((await open('GET', `/api/consent-links/${token}`)).statusCode).toBe(401);
    const access = await verified(token);
    const view = (await open('GET', `/api/consent-links/${token}`, undefined, access)).json<ConsentLinkView>();
    expect(view.patientFirstName).toBe('Jorge');
    expect(view.documents).toEqual([
      expect.objectContaining({
        kind: 'shotConsent',
        signed: false,
        title: { en: 'Consent for injection', es: 'Consentimiento para inyección' },
      }),
    ]);
    expect(view.documents[0]!.text.es).toContain('Acepto que se me aplique la inyección');

    const signed = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'shotConsent', signature: signature(), language: 'es' },
      access,
    );
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ signed: true, completed: true });
    const again = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'shotConsent', signature: signature(), language: 'es' },
      access,
    );
    expect(again.statusCode).toBe(410);
    const rows = await t.db.select().from(patientConsents).where(eq(patientConsents.patientId, patientId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'shotConsent', language: 'es', documentVersion: view.documents[0]!.version });
    expect(rows[0]!.documentText).toContain('Acepto que se me aplique la inyección');
    expect(rows[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const [audit] = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, rows[0]!.id), eq(activityLogs.area, 'Intake Information')));
    expect(audit).toMatchObject({ actorUserId: null, action: 'Updated' });

    const panel = (await staff('GET', `/api/patients/${patientId}/consents`)).json<PatientConsents>();
    expect(panel.shotConsentEnabled).toBe(true);
    expect(panel.latest).toEqual([expect.objectContaining({ kind: 'shotConsent', expired: false })]);
    expect(panel.pending).toEqual([]);
    const pdf = await staff('GET', panel.latest[0]!.pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it("uses the clinic's own wording when it wrote one, and pins the version to it", async () => {
    await setInstanceSetting(t.db, riverside, 'shotConsentEn', 'Our clinic wording for the injection consent.');
    try {
      const patientId = await newPatient(riverside);
      const token = tokenOf((await send({ patientId, kinds: ['shotConsent'], language: 'en' })).url);
      const access = await verified(token);
      const view = (await open('GET', `/api/consent-links/${token}`, undefined, access)).json<ConsentLinkView>();
      expect(view.documents[0]!.text.en).toBe('Our clinic wording for the injection consent.');
      expect(view.documents[0]!.text.es).toContain('Acepto');
    } finally {
      await setInstanceSetting(t.db, riverside, 'shotConsentEn', '');
    }
  });

  it('is refused (400 on kinds) when the clinic does not sign injection consents digitally', async () => {
    await setInstanceSetting(t.db, riverside, 'enableDigitalShotConsent', 'false');
    try {
      const patientId = await newPatient(riverside);
      const response = await staff('POST', '/api/patients/consentlinks', { patientId, kinds: ['shotConsent'] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fields: { kinds: 'featureOff' } });
      expect((await staff('GET', `/api/patients/${patientId}/consents`)).json<PatientConsents>().shotConsentEnabled).toBe(false);
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableDigitalShotConsent', 'true');
    }
  });
});

describe('an expired agreement signed again', () => {
  it('goes to /patients/resignconsent, records the new signature and a fresh expiry, and the latest is no longer expired', async () => {
    const patientId = await newPatient(riverside);
    await t.db.insert(patientConsents).values({
      instanceId: riverside,
      patientId,
      kind: 'newPatientAgreement',
      title: 'New patient agreement',
      documentText: 'Old text',
      documentVersion: 'sha256:old',
      language: 'en',
      signatureImage: `data:image/png;base64,${PNG_1X1}`,
      signedAt: new Date(Date.now() - 400 * 86_400_000),
      expiresAt: new Date(Date.now() - 35 * 86_400_000),
    });
    expect((await staff('GET', `/api/patients/${patientId}/consents`)).json<PatientConsents>().latest[0]).toMatchObject({
      expired: true,
    });

    const link = await send({ patientId, kinds: ['newPatientAgreement'] });
    expect(link.url).toMatch(/\/patients\/resignconsent\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link.url);
    expect((await staff('GET', `/api/patients/${patientId}/consents`)).json<PatientConsents>().pending).toEqual([
      expect.objectContaining({ linkId: link.linkId, kinds: ['newPatientAgreement'] }),
    ]);
    const access = await verified(token);
    const notDrawable = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'newPatientAgreement', signature: signature('data:image/png;base64,iVBORw0KGgo='), language: 'en' },
      access,
    );
    expect(notDrawable.statusCode).toBe(400);
    expect(notDrawable.json()).toMatchObject({ fields: { signature: 'signatureInvalid' } });
    const wrongKind = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'shotConsent', signature: signature(), language: 'en' },
      access,
    );
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json()).toMatchObject({ fields: { kind: 'invalid' } });
    const signed = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'newPatientAgreement', signature: signature(), language: 'en' },
      access,
    );
    expect(signed.json()).toEqual({ signed: true, completed: true });
    const panel = (await staff('GET', `/api/patients/${patientId}/consents`)).json<PatientConsents>();
    expect(panel.latest).toEqual([expect.objectContaining({ kind: 'newPatientAgreement', expired: false })]);
    expect(panel.pending).toEqual([]);
    const [patient] = await t.db.select().from(patients).where(eq(patients.id, patientId));
    expect(patient!.agreementSignedDate).not.toBeNull();
    // The finished link can still be read, not signed.
    const view = (await open('GET', `/api/consent-links/${token}`, undefined, access)).json<ConsentLinkView>();
    expect(view.completedAt).not.toBeNull();
    expect(view.documents[0]!.signed).toBe(true);
  });

  it('replaces an unfinished consent link of the patient with the new one', async () => {
    const patientId = await newPatient(riverside);
    const first = await send({ patientId, kinds: ['newPatientAgreement'] });
    await send({ patientId, kinds: ['newPatientAgreement', 'shotConsent'] });
    const [old] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, first.linkId));
    expect(old!.revokedAt).not.toBeNull();
    expect((await open('GET', `/api/patient-links/${tokenOf(first.url)}/status`)).json()).toMatchObject({ status: 'revoked' });
  });
});

describe('consent links: bad input, other clinics, other patients, closed accounts', () => {
  it('answers 400 with fields on bad input, never a 500', async () => {
    const patientId = await newPatient(riverside);
    const bad = await staff('POST', '/api/patients/consentlinks', { patientId, kinds: [], send: ['fax'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields).sort()).toEqual(['kinds', 'send.0']);
    const noEmail = await newPatient(riverside, null);
    const cannotEmail = await staff('POST', '/api/patients/consentlinks', {
      patientId: noEmail,
      kinds: ['shotConsent'],
      send: ['email'],
    });
    expect(cannotEmail.json()).toMatchObject({ fields: { send: 'patientEmailMissing' } });
    const token = tokenOf((await send({ patientId, kinds: ['shotConsent'] })).url);
    const access = await verified(token);
    const badSignature = await open(
      'POST',
      `/api/consent-links/${token}/sign`,
      { kind: 'shotConsent', signature: { image: 'not an image', signedAt: 'yesterday' }, language: 'xx' },
      access,
    );
    expect(badSignature.statusCode).toBe(400);
  });

  it("keeps other clinics' staff out (404), and one patient's access token off another's link (401)", async () => {
    const patientId = await newPatient(riverside);
    expect(
      (await staff('POST', '/api/patients/consentlinks', { patientId, kinds: ['newPatientAgreement'] }, 'admin2')).statusCode,
    ).toBe(404);
    expect((await staff('GET', `/api/patients/${patientId}/consents`, undefined, 'admin2')).statusCode).toBe(404);
    const lakesidePatient = await newPatient(lakeside);
    expect(
      (await staff('POST', '/api/patients/consentlinks', { patientId: lakesidePatient, kinds: ['newPatientAgreement'] }))
        .statusCode,
    ).toBe(404);
    const [visit] = await t.db
      .insert(appointments)
      .values({ instanceId: riverside, patientId: await newPatient(riverside), startsAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: appointments.id });
    const otherVisit = await staff('POST', '/api/patients/consentlinks', {
      patientId,
      appointmentId: visit!.id,
      kinds: ['shotConsent'],
    });
    expect(otherVisit.statusCode).toBe(404);

    const a = tokenOf((await send({ patientId, kinds: ['shotConsent'] })).url);
    const b = tokenOf((await send({ patientId: await newPatient(riverside), kinds: ['shotConsent'] })).url);
    const accessA = await verified(a);
    expect((await open('GET', `/api/consent-links/${b}`, undefined, accessA)).statusCode).toBe(401);
    expect((await open('GET', `/api/consent-links/${'A'.repeat(43)}`, undefined, accessA)).statusCode).toBe(404);
    // A consent link is not a form link: the form routes do not serve it.
    expect((await open('GET', `/api/patient-links/${a}/form`, undefined, accessA)).statusCode).toBe(404);
  });

  it('a Doctor sees only their own patients; a closed account gets nothing sent', async () => {
    const patientId = await newPatient(riverside);
    expect((await staff('GET', `/api/patients/${patientId}/consents`, undefined, 'doctor')).statusCode).toBe(404);
    await t.db.update(patients).set({ accountClosedAt: new Date() }).where(eq(patients.id, patientId));
    const closed = await staff('POST', '/api/patients/consentlinks', { patientId, kinds: ['shotConsent'] });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ messageKey: 'accountClosed' });
  });
});
