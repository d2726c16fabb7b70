import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLegalTexts, type LegalText } from '@pathwell/contracts/legal-texts';
import { instances } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
let manager: Awaited<ReturnType<typeof signIn>>;

const RIVERSIDE_TERMS = {
  termsAndConditionsEn: 'Riverside terms.\n\nCall the front desk with questions.',
  termsAndConditionsEs: 'Términos de Riverside.\n\nLlame a recepción si tiene preguntas.',
};
const LAKESIDE_TERMS = { termsAndConditionsEn: 'Lakeside terms, in English only.' };

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });

async function saveSettings(instanceId: string, payload: Record<string, string>) {
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/instancesettings',
    headers: { ...manager.headers, clinicid: instanceId },
    payload,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  const clinics = await t.db.select({ id: instances.id, name: instances.name }).from(instances);
  riverside = clinics.find((clinic) => clinic.name === 'Riverside Spine & Pain')!.id;
  lakeside = clinics.find((clinic) => clinic.name === 'Lakeside Pain Center')!.id;
  manager = await signIn(t.app, 'manager@pathwell.demo');
  await saveSettings(riverside, RIVERSIDE_TERMS);
  await saveSettings(lakeside, LAKESIDE_TERMS);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/public/legal/{page}', () => {
  it('answers the default terms and privacy policy in both languages to anyone, without a clinic', async () => {
    for (const page of ['terms', 'privacy'] as const) {
      const response = await get(`/api/public/legal/${page}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        page,
        clinicName: null,
        text: defaultLegalTexts[page],
        isDefault: { en: true, es: true },
      });
    }
    const privacy = (await get('/api/public/legal/privacy')).json<LegalText>();
    expect(privacy.text.en).toContain(
      'Pathwell does not ask for, and does not use your information for, advertising or marketing consent.',
    );
    expect(privacy.text.es).toContain('Pathwell no le pide consentimiento para publicidad ni marketing');
  });

  it("answers a clinic's own terms in English and Spanish, with its name and nothing else of the clinic", async () => {
    const response = await get(`/api/public/legal/terms?clinic=${riverside}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<LegalText>();
    expect(body).toEqual({
      page: 'terms',
      clinicName: 'Riverside Spine & Pain',
      text: { en: RIVERSIDE_TERMS.termsAndConditionsEn, es: RIVERSIDE_TERMS.termsAndConditionsEs },
      isDefault: { en: false, es: false },
    });
    expect(Object.keys(body).sort()).toEqual(['clinicName', 'isDefault', 'page', 'text']);
  });

  it('fills a language or a page the clinic left empty with the default', async () => {
    const terms = (await get(`/api/public/legal/terms?clinic=${lakeside}`)).json<LegalText>();
    expect(terms).toEqual({
      page: 'terms',
      clinicName: 'Lakeside Pain Center',
      text: { en: LAKESIDE_TERMS.termsAndConditionsEn, es: defaultLegalTexts.terms.es },
      isDefault: { en: false, es: true },
    });
    const privacy = (await get(`/api/public/legal/privacy?clinic=${riverside}`)).json<LegalText>();
    expect(privacy).toEqual({
      page: 'privacy',
      clinicName: 'Riverside Spine & Pain',
      text: defaultLegalTexts.privacy,
      isDefault: { en: true, es: true },
    });
  });

  it("never answers another clinic's text, whoever asks", async () => {
    const lakesideAdmin = await signIn(t.app, 'admin2@pathwell.demo');
    const asLakeside = await get(`/api/public/legal/terms?clinic=${riverside}`, lakesideAdmin.headers);
    expect(asLakeside.json<LegalText>().text.en).toBe(RIVERSIDE_TERMS.termsAndConditionsEn);
    const lakesideTerms = (await get(`/api/public/legal/terms?clinic=${lakeside.toUpperCase()}`)).json<LegalText>();
    expect(lakesideTerms.clinicName).toBe('Lakeside Pain Center');
    expect(JSON.stringify(lakesideTerms)).not.toContain('Riverside');
  });

  it('follows a change the clinic saves, and an emptied text goes back to the default', async () => {
    await saveSettings(lakeside, { termsAndConditionsEn: '' });
    const terms = (await get(`/api/public/legal/terms?clinic=${lakeside}`)).json<LegalText>();
    expect(terms.text.en).toBe(defaultLegalTexts.terms.en);
    expect(terms.isDefault).toEqual({ en: true, es: true });
    await saveSettings(lakeside, LAKESIDE_TERMS);
  });

  it('refuses a malformed clinic id or an unknown page with a 400 naming the field', async () => {
    const badClinic = await get('/api/public/legal/terms?clinic=not-a-clinic');
    expect(badClinic.statusCode).toBe(400);
    expect(badClinic.json()).toMatchObject({ code: 'VALIDATION', fields: { clinic: 'idInvalid' } });
    const emptyClinic = await get('/api/public/legal/privacy?clinic=');
    expect(emptyClinic.statusCode).toBe(400);
    expect(emptyClinic.json()).toHaveProperty('fields.clinic');
    const nul = await get('/api/public/legal/terms?clinic=%00');
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toHaveProperty('fields.clinic');
    const badPage = await get('/api/public/legal/cookies');
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toHaveProperty('fields.page');
  });

  it('answers 404 for a clinic that does not exist', async () => {
    const response = await get('/api/public/legal/privacy?clinic=7d0c2f4e-5b6a-4c3d-9e8f-0a1b2c3d4e5f');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', messageKey: 'clinicNotFound' });
  });

  it("still answers a switched-off clinic's text: its patients may need it", async () => {
    await t.db.update(instances).set({ isActive: false }).where(eq(instances.id, lakeside));
    try {
      const response = await get(`/api/public/legal/terms?clinic=${lakeside}`);
      expect(response.statusCode).toBe(200);
      expect(response.json<LegalText>().text.en).toBe(LAKESIDE_TERMS.termsAndConditionsEn);
    } finally {
      await t.db.update(instances).set({ isActive: true }).where(eq(instances.id, lakeside));
    }
  });
});
