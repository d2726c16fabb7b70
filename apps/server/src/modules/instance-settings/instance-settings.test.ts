import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurationKeys } from '@pathwell/contracts/instance-settings';
import { activityLogs, customForms, instances, instanceSettings } from '../../db/schema';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';
import { decryptSetting } from '../../lib/settings-crypto';

let t: TestApp;
let riversideId: string;
let lakesideId: string;
type Headers = Record<string, string>;
const as: Record<'manager' | 'admin' | 'doctor' | 'staff' | 'admin2' | 'parent', Headers> = {} as never;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ['manager', 'admin', 'doctor', 'staff', 'admin2', 'parent'] as const) {
    as[who] = (await signIn(t.app, `${who}@pathwell.demo`)).headers;
  }
  const clinics = await t.db.select({ id: instances.id, name: instances.name }).from(instances);
  riversideId = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakesideId = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
});
afterAll(async () => {
  await t?.close();
});

const getSettings = (headers: Headers) => t.app.inject({ method: 'GET', url: '/api/instancesettings', headers });
const putSettings = (headers: Headers, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/instancesettings', headers, payload });
const postWire = (headers: Headers, configurationValues: string[]) =>
  t.app.inject({ method: 'POST', url: '/api/instancesettings/addorupdate', headers, payload: { configurationValues } });
const getWire = async (headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: '/api/instancesettings/configurationvalues', headers })).json<{
    configurationIds: string[];
    configurationValues: string[];
  }>();

async function storedRow(instanceId: string, key: string) {
  const [row] = await t.db
    .select()
    .from(instanceSettings)
    .where(and(eq(instanceSettings.instanceId, instanceId), eq(instanceSettings.configurationId, key)));
  return row;
}

async function activityCount(instanceId: string) {
  const [row] = await t.db.select({ n: count() }).from(activityLogs).where(eq(activityLogs.instanceId, instanceId));
  return Number(row?.n ?? 0);
}

describe('instance settings: fetch and save (typed)', () => {
  it('a System Manager saves typed settings and reads them back, and the shell follows the clinic name', async () => {
    const saved = await putSettings(as.manager, {
      clinicName: 'Riverside Spine & Pain Institute',
      useNevro: true,
      autoLogoutTime: 45,
      apptCancelEmails: ['frontdesk@riverside.example', 'manager@riverside.example'],
      applicableForms: [1, 4, 11],
      proRate: 42.5,
      timeZoneId: 'America/New_York',
    });
    expect(saved.statusCode).toBe(200);

    const read = await getSettings(as.manager);
    expect(read.statusCode).toBe(200);
    expect(read.json().values).toMatchObject({
      clinicName: 'Riverside Spine & Pain Institute',
      useNevro: true,
      autoLogoutTime: 45,
      apptCancelEmails: ['frontdesk@riverside.example', 'manager@riverside.example'],
      applicableForms: [1, 4, 11],
      proRate: 42.5,
      timeZoneId: 'America/New_York',
      // Seeded earlier and untouched by this save.
      clinicPhoneNumber: '(512) 555-0142',
      enableEmail: true,
    });
    expect((await storedRow(riversideId, 'useNevro'))?.configurationValue).toBe('true');

    const session = (await t.app.inject({ method: 'GET', url: '/api/session', headers: as.staff })).json();
    expect(session.instance.name).toBe('Riverside Spine & Pain Institute');
    expect(session.flags.programMode).toBe(true);
    await putSettings(as.manager, { useNevro: false });
  });

  it.each(['admin', 'doctor', 'staff', 'parent'] as const)('a %s user gets 403 on every management route', async (who) => {
    const headers = as[who];
    const calls = await Promise.all([
      getSettings(headers),
      putSettings(headers, { clinicName: 'Hijacked' }),
      postWire(headers, []),
      t.app.inject({ method: 'GET', url: '/api/instancesettings/configurationvalues', headers }),
      t.app.inject({ method: 'PUT', url: '/api/instancesettings/applicableforms', headers, payload: [1] }),
      t.app.inject({ method: 'DELETE', url: '/api/instancesettings/files/clinicLogoPrimary', headers }),
      t.app.inject({ method: 'DELETE', url: '/api/instancesettings/privatekey', headers }),
    ]);
    expect(calls.map((call) => call.statusCode)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect((await storedRow(riversideId, 'clinicName'))?.configurationValue).not.toBe('Hijacked');
  });

  it('answers 401 without a session', async () => {
    expect((await getSettings({})).statusCode).toBe(401);
  });

  it('bad input answers 400 with the fields at fault and stores nothing', async () => {
    const response = await putSettings(as.manager, {
      clinicName: 'Should not be stored',
      apptCancelEmails: ['ok@clinic.example', 'not-an-email'],
      clinicEmail: 'clinic.example',
      modMedResourceUrl: 'http://10.0.0.8/fhir',
      timeZoneId: 'Mars/Olympus',
      autoLogoutTime: 0,
      applicableForms: [16],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      apptCancelEmails: 'emailListInvalid',
      clinicEmail: 'emailInvalid',
      modMedResourceUrl: 'urlInvalid',
      timeZoneId: 'timeZoneInvalid',
      autoLogoutTime: 'numberOutOfRange',
      applicableForms: 'formIdsInvalid',
    });
    expect((await storedRow(riversideId, 'clinicName'))?.configurationValue).not.toBe('Should not be stored');
  });

  it('refuses a key the catalogue does not have', async () => {
    const response = await putSettings(as.manager, { clinicNmae: 'Typo' });
    expect(response.statusCode).toBe(400);
    expect(await storedRow(riversideId, 'clinicNmae')).toBeUndefined();
  });
});

describe('instance settings: secrets', () => {
  const password = 'M0dMed-Pa55word!';

  it('are never returned, only whether they are set, and are encrypted in the database', async () => {
    const saved = await putSettings(as.manager, { modMedPassword: password, drChronoWebhookSecret: 'whsec_abc123' });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(password);
    expect(saved.json().secrets.modMedPassword).toEqual({ isSet: true });
    expect(saved.json().secrets.greenwayPassword).toEqual({ isSet: false });
    expect(saved.json().values).not.toHaveProperty('modMedPassword');

    const read = await getSettings(as.manager);
    expect(read.body).not.toContain(password);
    expect(read.body).not.toContain('whsec_abc123');
    const wire = await getWire(as.manager);
    expect(wire.configurationValues[configurationKeys.indexOf('modMedPassword')]).toBe('');

    const row = await storedRow(riversideId, 'modMedPassword');
    expect(row?.configurationValue).toMatch(/^enc:v1:/);
    expect(row?.configurationValue).not.toContain(password);
    expect(decryptSetting(t.config.appSecret, riversideId, 'modMedPassword', row!.configurationValue)).toBe(password);
    // Bound to its clinic and key: the same ciphertext does not open as another row.
    expect(() => decryptSetting(t.config.appSecret, lakesideId, 'modMedPassword', row!.configurationValue)).toThrow();
  });

  it('a blank or absent secret keeps the stored value; null clears it', async () => {
    const before = (await storedRow(riversideId, 'modMedPassword'))?.configurationValue;
    expect(before).toMatch(/^enc:v1:/);

    expect((await putSettings(as.manager, { modMedPassword: '', clinicAddress: '1 River Rd' })).statusCode).toBe(200);
    expect((await storedRow(riversideId, 'modMedPassword'))?.configurationValue).toBe(before);

    const wire = await getWire(as.manager);
    expect((await postWire(as.manager, wire.configurationValues)).statusCode).toBe(200);
    expect((await storedRow(riversideId, 'modMedPassword'))?.configurationValue).toBe(before);

    const cleared = await putSettings(as.manager, { modMedPassword: null });
    expect(cleared.json().secrets.modMedPassword).toEqual({ isSet: false });
    expect(await storedRow(riversideId, 'modMedPassword')).toBeUndefined();
  });
});

describe('instance settings: the configurationValues wire format', () => {
  it('round-trips: "true" is stored as a boolean, read back typed and as the text "true"', async () => {
    const wire = await getWire(as.manager);
    expect(wire.configurationIds).toEqual(configurationKeys);
    const values = [...wire.configurationValues];
    values[configurationKeys.indexOf('useAthena')] = 'true';
    values[configurationKeys.indexOf('athenaDepartmentIds')] = '1, 7';
    values[configurationKeys.indexOf('defaultPainScore')] = '3';
    values[configurationKeys.indexOf('greenwayPassword')] = 'Gr33nway!';

    const saved = await postWire(as.manager, values);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().values).toMatchObject({ useAthena: true, athenaDepartmentIds: ['1', '7'], defaultPainScore: 3 });
    expect(saved.json().secrets.greenwayPassword).toEqual({ isSet: true });
    expect((await storedRow(riversideId, 'useAthena'))?.configurationValue).toBe('true');

    const again = await getWire(as.manager);
    expect(again.configurationValues[configurationKeys.indexOf('useAthena')]).toBe('true');
    expect(again.configurationValues[configurationKeys.indexOf('athenaDepartmentIds')]).toBe('1,7');
    expect(again.configurationValues[configurationKeys.indexOf('greenwayPassword')]).toBe('');

    const flag = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/athena', headers: as.staff });
    expect(flag.json()).toEqual({ flag: 'athena', key: 'useAthena', enabled: true });
  });

  it('names the setting at fault, not the list position', async () => {
    const values = (await getWire(as.manager)).configurationValues;
    const bad = [...values];
    bad[configurationKeys.indexOf('campaignEmails')] = 'a@b.example, nope';
    bad[configurationKeys.indexOf('useNevro')] = 'yes';
    const response = await postWire(as.manager, bad);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ campaignEmails: 'emailListInvalid', useNevro: 'invalid' });
  });

  it('wants exactly one value per key', async () => {
    const response = await postWire(as.manager, ['Riverside']);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ configurationValues: 'invalid' });
  });
});

describe('instance settings: activity log', () => {
  it('every save writes one entry naming the changed keys, never a secret value', async () => {
    const before = await activityCount(riversideId);
    const response = await putSettings(as.manager, {
      clinicPhoneNumber: '(512) 555-0100',
      enableSms: true,
      nevroSalesforceClientSecret: 'sf-secret-value',
    });
    expect(response.statusCode).toBe(200);
    expect(await activityCount(riversideId)).toBe(before + 1);
    const [entry] = await t.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.instanceId, riversideId))
      .orderBy(activityLogs.chainSeq)
      .then((rows) => rows.slice(-1));
    expect(entry).toMatchObject({ area: 'Admin Configuration', action: 'Updated', actorEmail: 'manager@pathwell.demo' });
    expect(entry?.description).toContain('clinicPhoneNumber');
    expect(entry?.description).toContain('enableSms');
    expect(entry?.description).toContain('nevroSalesforceClientSecret');
    expect(entry?.description).not.toContain('sf-secret-value');
    expect(entry?.description).not.toContain('clinicName');
  });

  it('a save that changes nothing writes no entry', async () => {
    const before = await activityCount(riversideId);
    expect((await putSettings(as.manager, { enableSms: true, nevroSalesforceClientSecret: 'sf-secret-value' })).statusCode).toBe(
      200,
    );
    expect(await activityCount(riversideId)).toBe(before);
  });
});

describe('instance settings: tenancy', () => {
  it('a System Manager acting for Lakeside through ClinicId changes only Lakeside', async () => {
    const riversideBefore = (await getSettings(as.manager)).json().values.clinicName;
    const response = await putSettings(
      { ...as.manager, clinicid: lakesideId },
      { clinicName: 'Lakeside Renamed', useMainstay: true },
    );
    expect(response.statusCode).toBe(200);
    expect((await storedRow(lakesideId, 'clinicName'))?.configurationValue).toBe('Lakeside Renamed');
    expect((await getSettings(as.manager)).json().values.clinicName).toBe(riversideBefore);
    expect((await getSettings(as.manager)).json().values.useMainstay).toBe(false);

    const lakesideSession = (await t.app.inject({ method: 'GET', url: '/api/session', headers: as.admin2 })).json();
    expect(lakesideSession.instance.name).toBe('Lakeside Renamed');
  });

  it('an Admin naming another clinic in ClinicId is refused before any settings are read', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/flags/mainstay',
      headers: { ...as.admin, clinicid: lakesideId },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('instance settings: applicable forms', () => {
  const customFormOf = async (instanceId: string, title: string) => {
    const [form] = await t.db.insert(customForms).values({ instanceId, title }).returning({ id: customForms.id });
    return form!.id;
  };

  it('a System Manager replaces the list; every signed-in role reads it', async () => {
    const custom = await customFormOf(riversideId, 'Intake extras');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/instancesettings/applicableforms',
      headers: as.manager,
      payload: [4, 6, 4, custom],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ applicableForms: [4, 6, custom] });
    const read = await t.app.inject({ method: 'GET', url: '/api/instancesettings/applicableforms', headers: as.staff });
    expect(read.json()).toEqual({ applicableForms: [4, 6, custom] });
    // ODI's licensed wording is not loaded for Riverside: it cannot be an applicable form (decision 0061).
    const odi = await t.app.inject({
      method: 'PUT',
      url: '/api/instancesettings/applicableforms',
      headers: as.manager,
      payload: [4, 2],
    });
    expect(odi.statusCode).toBe(400);
    expect(odi.json()).toMatchObject({ messageKey: 'formWordingNotLoaded', fields: { applicableForms: 'formWordingNotLoaded' } });
    const lakeside = await t.app.inject({ method: 'GET', url: '/api/instancesettings/applicableforms', headers: as.admin2 });
    expect(lakeside.json()).toEqual({ applicableForms: [] });
  });

  it('refuses form ids outside 1–15 that are not custom form ids', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/instancesettings/applicableforms',
      headers: as.manager,
      payload: [0, 'SF36'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ applicableForms: 'formIdsInvalid' });
  });

  it("Lakeside cannot store Riverside's custom form, as an applicable form or as the default RAND form", async () => {
    const riversideForm = await customFormOf(riversideId, 'Riverside only');
    const lakesideForm = await customFormOf(lakesideId, 'Lakeside only');
    const forLakeside = { ...as.manager, ClinicId: lakesideId };
    const applicable = await t.app.inject({
      method: 'PUT',
      url: '/api/instancesettings/applicableforms',
      headers: forLakeside,
      payload: [4, riversideForm],
    });
    expect(applicable.statusCode).toBe(400);
    expect(applicable.json()).toMatchObject({ code: 'VALIDATION', fields: { applicableForms: 'formUnknown' } });
    const randForm = await putSettings(forLakeside, { defaultRandForm: riversideForm });
    expect(randForm.statusCode).toBe(400);
    expect(randForm.json()).toMatchObject({ code: 'VALIDATION', fields: { defaultRandForm: 'formUnknown' } });
    const wire = await getWire(forLakeside);
    const texts = wire.configurationValues.map((value, index) =>
      wire.configurationIds[index] === 'applicableForms' ? riversideForm : value,
    );
    const wireSave = await postWire(forLakeside, texts);
    expect(wireSave.statusCode).toBe(400);
    expect(wireSave.json().fields).toEqual({ applicableForms: 'formUnknown' });
    expect(await storedRow(lakesideId, 'applicableForms')).toBeUndefined();
    expect(await storedRow(lakesideId, 'defaultRandForm')).toBeUndefined();

    const own = await putSettings(forLakeside, { defaultRandForm: lakesideForm, applicableForms: [lakesideForm, 11] });
    expect(own.statusCode).toBe(200);
    expect(own.json().values).toMatchObject({ defaultRandForm: lakesideForm, applicableForms: [lakesideForm, 11] });
  });
});

describe('instance settings: reads for every signed-in role', () => {
  it('single flags answer for each role and the acting clinic', async () => {
    await putSettings(as.manager, { enablePatientSelfCheckin: true, showBmiFilterOnSandbox: true, useRpm: false });
    for (const who of ['manager', 'admin', 'doctor', 'staff'] as const) {
      const selfCheckIn = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/selfcheckin', headers: as[who] });
      expect(selfCheckIn.json(), who).toEqual({ flag: 'selfcheckin', key: 'enablePatientSelfCheckin', enabled: true });
    }
    const rpm = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/rpm', headers: as.doctor });
    expect(rpm.json().enabled).toBe(false);
    const bmi = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/bmifilter', headers: as.doctor });
    expect(bmi.json().enabled).toBe(true);
    const lakeside = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/selfcheckin', headers: as.admin2 });
    expect(lakeside.json().enabled).toBe(false);
    const codePull = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/codepull', headers: as.admin2 });
    expect(codePull.json().enabled).toBe(true);
  });

  it('an unknown flag is a 400', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/instancesettings/flags/telepathy', headers: as.staff });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('flag');
  });

  it('extended patient questions, time zone offset and auto logout time', async () => {
    await putSettings(as.manager, { extendedPatientAskPreferredPronouns: true, timeZoneOffsetHours: -5, autoLogoutTime: 20 });
    const questions = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/extendedpatientquestions',
      headers: as.staff,
    });
    expect(questions.json()).toEqual({
      enabled: true,
      extendedPatientAskSexualOrientation: false,
      extendedPatientAskAssignedSexAtBirth: false,
      extendedPatientAskPreferredPronouns: true,
      extendedPatientAskCommunicationPreferences: false,
    });
    const offset = await t.app.inject({ method: 'GET', url: '/api/instancesettings/timezoneoffsethours', headers: as.staff });
    expect(offset.json()).toEqual({ timeZoneId: 'America/New_York', timeZoneOffsetHours: -5 });
    const lakesideOffset = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/timezoneoffsethours',
      headers: as.admin2,
    });
    expect(lakesideOffset.json()).toEqual({ timeZoneId: 'America/Chicago', timeZoneOffsetHours: -6 });
    const logout = await t.app.inject({ method: 'GET', url: '/api/instancesettings/autologouttime', headers: as.doctor });
    expect(logout.json()).toEqual({ autoLogoutTime: 20 });
    const logo = await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.doctor });
    expect(logo.json()).toEqual({ url: null });
    await putSettings(as.manager, { autoLogoutTime: 30 });
  });
});

describe('the daily cap of automatic messages per patient (issue #24 §5, decision 0066)', () => {
  const cap = (headers: Headers, method: 'GET' | 'PUT' = 'GET', payload?: object) =>
    t.app.inject({ method, url: '/api/instancesettings/dailycap', headers, payload });

  it('an Admin reads the default 3 and changes it for their clinic only, recorded; empty means no limit', async () => {
    expect((await cap(as.admin)).json()).toEqual({ maxPatientMessagesPerDay: 3 });
    const before = await activityCount(riversideId);
    const saved = await cap(as.admin, 'PUT', { maxPatientMessagesPerDay: 5 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ maxPatientMessagesPerDay: 5 });
    expect((await storedRow(riversideId, 'maxPatientMessagesPerDay'))?.configurationValue).toBe('5');
    expect(await activityCount(riversideId)).toBeGreaterThan(before);
    // Lakeside keeps its own (the default).
    expect((await cap(as.admin2)).json()).toEqual({ maxPatientMessagesPerDay: 3 });
    expect((await cap(as.manager, 'PUT', { maxPatientMessagesPerDay: null })).json()).toEqual({ maxPatientMessagesPerDay: null });
    expect((await cap(as.admin, 'PUT', { maxPatientMessagesPerDay: 3 })).statusCode).toBe(200);
  });

  it('answers 400 with the field for a number out of range or not a whole number, 403 for Staff and Doctors', async () => {
    for (const value of [0, 51, 2.5, 'three']) {
      const bad = await cap(as.admin, 'PUT', { maxPatientMessagesPerDay: value });
      expect(bad.statusCode, String(value)).toBe(400);
      expect(bad.json().fields).toHaveProperty('maxPatientMessagesPerDay');
    }
    expect((await cap(as.staff)).statusCode).toBe(403);
    expect((await cap(as.doctor, 'PUT', { maxPatientMessagesPerDay: 9 })).statusCode).toBe(403);
    // An Admin naming another clinic is refused.
    expect((await cap({ ...as.admin, clinicid: lakesideId })).statusCode).toBe(403);
  });
});
