import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerationTypes, type Enumeration } from '@pathwell/contracts/enumerations';
import type { TimeZone } from '@pathwell/contracts/managed-lists';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let staff: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  staff = (await signIn(t.app, 'staff@pathwell.demo')).headers;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });
const enumeration = async (type: string) => {
  const response = await get(`/api/enums?type=${encodeURIComponent(type)}`);
  expect(response.statusCode, type).toBe(200);
  return response.json<Enumeration>();
};

describe('GET /api/enums', () => {
  it.each(enumerationTypes)('%s answers with values labelled in English and Spanish', async (type) => {
    const body = await enumeration(type);
    expect(body.type).toBe(type);
    expect(body.values.length).toBeGreaterThan(0);
    for (const option of body.values) {
      expect(option.label.en.trim(), `${type} ${option.value}`).not.toBe('');
      expect(option.label.es.trim(), `${type} ${option.value}`).not.toBe('');
    }
    expect(new Set(body.values.map((option) => option.value)).size).toBe(body.values.length);
  });

  it('serves the numbers of the specification', async () => {
    const status = await enumeration('appointmentStatus');
    expect(status.values.map((option) => [option.code, option.value])).toEqual([
      ['Checking_In', 1],
      ['Upcoming', 2],
      ['Completed', 3],
      ['No_Show', 4],
    ]);
    const phones = await enumeration('patientPhoneTypes');
    expect(
      phones.values.filter((option) => ['MOBILE', 'HOME', 'WORK'].includes(option.code!)).map((option) => option.value),
    ).toEqual([7, 1, 2]);
    const forms = await enumeration('outcomeForms');
    expect(forms.values).toHaveLength(15);
    expect(forms.values[14]).toMatchObject({ value: 15, code: 'CESDR' });
    expect((await enumeration('customQuestionTypes')).values.at(-1)).toMatchObject({ value: 18, code: 'SIGNATURE' });
    expect((await enumeration('auditAreas')).values).toHaveLength(14);
  });

  it('US states include DC, the territories and military mail codes, by their USPS codes', async () => {
    const states = await enumeration('usStates');
    const codes = states.values.map((option) => option.value);
    for (const code of ['TX', 'CA', 'NY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'AA', 'AE', 'AP']) expect(codes).toContain(code);
    expect(states.values.filter((option) => option.group === 'state')).toHaveLength(50);
    expect(states.values.find((option) => option.value === 'NM')?.label).toEqual({ en: 'New Mexico', es: 'Nuevo México' });
  });

  it('countries are the 249 ISO 3166-1 alpha-2 codes', async () => {
    const countries = await enumeration('countries');
    expect(countries.values).toHaveLength(249);
    expect(countries.values.every((option) => /^[A-Z]{2}$/.test(String(option.value)))).toBe(true);
    expect(countries.values.find((option) => option.value === 'MX')?.label).toEqual({ en: 'Mexico', es: 'México' });
  });

  it('the language list has ISO 639-2 codes, at least the ISO 639-1 languages, and Patient Declined', async () => {
    const languages = await enumeration('languages');
    expect(languages.values.length).toBeGreaterThanOrEqual(185);
    expect(languages.values.find((option) => option.value === 'spa')?.label).toEqual({ en: 'Spanish', es: 'Español' });
    expect(languages.values.find((option) => option.value === 'ger')?.label.en).toBe('German');
    const declined = languages.values.find((option) => option.label.en === 'Patient Declined');
    expect(declined?.value).toBe('declined');
    const codes = languages.values.filter((option) => option !== declined).map((option) => String(option.value));
    expect(codes.every((code) => /^[a-z]{3}$/.test(code))).toBe(true);
  });

  it('nicotine status follows the CDC smoking status categories with their SNOMED CT codes', async () => {
    const nicotine = await enumeration('nicotineStatus');
    expect(nicotine.values.map((option) => option.code)).toEqual([
      '449868002',
      '428041000124106',
      '8517006',
      '266919005',
      '77176002',
      '266927001',
      '428071000124103',
      '428061000124105',
    ]);
  });

  it('finds a type whatever its case', async () => {
    expect((await enumeration('USSTATES')).type).toBe('usStates');
  });

  it('an unknown type answers 400 and lists the valid types', async () => {
    const response = await get('/api/enums?type=shoeSizes');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fields: { type: 'invalid' } });
    expect(response.json().error).toContain('usStates');
    expect(response.json().error).toContain('languages');
  });

  it('a missing type answers 400 with the field', async () => {
    const response = await get('/api/enums');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ type: 'required' });
  });

  it('is open to patient-facing pages and to signed-in staff alike', async () => {
    expect((await get('/api/enums?type=languages', staff)).statusCode).toBe(200);
    expect((await get('/api/enums?type=languages')).statusCode).toBe(200);
  });
});

describe('GET /api/timezones', () => {
  it('lists every time zone with US zones first', async () => {
    const response = await get('/api/timezones', staff);
    expect(response.statusCode).toBe(200);
    const zones = response.json<TimeZone[]>();
    expect(zones.slice(0, 5).map((zone) => zone.id)).toEqual([
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
    ]);
    expect(zones.find((zone) => zone.id === 'America/Chicago')?.name).toContain('Central');
    expect(zones.map((zone) => zone.id)).toEqual(expect.arrayContaining(['Europe/Madrid', 'UTC', 'Pacific/Honolulu']));
    expect(new Set(zones.map((zone) => zone.id)).size).toBe(zones.length);
    const firstNonUs = zones.findIndex((zone) => zone.id === 'Africa/Abidjan');
    expect(firstNonUs).toBeGreaterThan(zones.findIndex((zone) => zone.id === 'Pacific/Pago_Pago'));
  });
});
