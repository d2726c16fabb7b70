import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerations } from '@pathwell/contracts/enumerations';
import type { PatientPayloadInput, PatientView } from '@pathwell/contracts/patients';
import { instances, managedItems, patients } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

/** Referral and clinical history on the patient record (issue #14): what the reports filter on. */
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
const items: Record<'referral' | 'deletedReferral' | 'lakesideReferral' | 'gender', string> = {
  referral: '',
  deletedReferral: '',
  lakesideReferral: '',
  gender: '',
};

const code = (type: 'diseaseStates' | 'psychiatricHistory' | 'surgicalHistory', en: string) =>
  enumerations[type].find((option) => option.label.en === en)!.value as number;
const DIABETES = code('diseaseStates', 'Diabetes');
const MIGRAINE = code('diseaseStates', 'Migraine');
const DEPRESSION = code('psychiatricHistory', 'Depression');
const PSYCH_NONE = code('psychiatricHistory', 'None');
const FUSION = code('surgicalHistory', 'Spinal fusion');

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const insert = async (instanceId: string, listType: string, name: string, deleted = false) => {
    const [row] = await t.db
      .insert(managedItems)
      .values({ instanceId, listType, name, attributes: {}, deletedAt: deleted ? new Date() : null })
      .returning({ id: managedItems.id });
    return row!.id;
  };
  items.referral = await insert(riverside, 'referrals', 'Dr. Test Referrer');
  items.deletedReferral = await insert(riverside, 'referrals', 'Dr. Gone Referrer', true);
  items.lakesideReferral = await insert(lakeside, 'referrals', 'Dr. Lakeside Referrer');
  items.gender = await insert(riverside, 'customfield:gender', 'Test gender');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });

let counter = 0;
const base = (extra: Partial<PatientPayloadInput> = {}): PatientPayloadInput => ({
  firstName: 'Rosa',
  lastName: `Historytest${Date.now().toString(36)}x${++counter}`,
  dateOfBirth: '1968-07-21',
  ...extra,
});

async function create(extra: Partial<PatientPayloadInput> = {}) {
  const response = await call('POST', '/api/patients/create', 'staff', base(extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PatientView>();
}

const fieldsOf = (body: string) => (JSON.parse(body) as { fields: Record<string, string> }).fields;

describe('referral and clinical history on the patient', () => {
  it('saves them (codes once each, sorted) and answers them on create and get', async () => {
    const view = await create({
      referralSource: 1,
      referringProviderId: items.referral,
      diseaseStates: [MIGRAINE, DIABETES, DIABETES],
      psychiatricHistory: [DEPRESSION],
      surgicalHistory: [FUSION],
    });
    const expected = {
      referralSource: 1,
      referringProviderId: items.referral,
      diseaseStates: [DIABETES, MIGRAINE],
      psychiatricHistory: [DEPRESSION],
      surgicalHistory: [FUSION],
      successStory: null,
      successStorySharedAt: null,
    };
    expect(view).toMatchObject(expected);
    const read = await call('GET', `/api/patients/${view.id}`, 'staff');
    expect(read.json<PatientView>()).toMatchObject(expected);
    const [row] = await t.db.select().from(patients).where(eq(patients.id, view.id));
    expect(row).toMatchObject({ referralSource: 1, diseaseStates: [DIABETES, MIGRAINE] });
    const dashboard = await call('GET', `/api/patients/${view.id}/dashboard`, 'staff');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json<{ demographics: Record<string, unknown> }>().demographics).toMatchObject({
      referralSource: 1,
      referringProviderName: 'Dr. Test Referrer',
      diseaseStates: [DIABETES, MIGRAINE],
      psychiatricHistory: [DEPRESSION],
      surgicalHistory: [FUSION],
    });
  });

  it('starts empty when a client leaves them out, and keeps them when a change leaves them out', async () => {
    const plain = await create();
    expect(plain).toMatchObject({
      referralSource: null,
      referringProviderId: null,
      diseaseStates: [],
      psychiatricHistory: [],
      surgicalHistory: [],
    });
    const view = await create({ referralSource: 2, psychiatricHistory: [PSYCH_NONE] });
    const kept = await call('PUT', `/api/patients/${view.id}`, 'staff', base({ lastName: view.lastName, weight: 150 }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<PatientView>()).toMatchObject({ weight: 150, referralSource: 2, psychiatricHistory: [PSYCH_NONE] });
    const cleared = await call(
      'PUT',
      `/api/patients/${view.id}`,
      'staff',
      base({ lastName: view.lastName, referralSource: null, psychiatricHistory: [] }),
    );
    expect(cleared.json<PatientView>()).toMatchObject({ referralSource: null, psychiatricHistory: [] });
  });

  it('refuses a referring provider of another clinic, of another list or deleted', async () => {
    for (const id of [items.lakesideReferral, items.gender, items.deletedReferral]) {
      const response = await call('POST', '/api/patients/create', 'staff', base({ referringProviderId: id }));
      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response.body)).toEqual({ referringProviderId: 'invalid' });
    }
    const view = await create();
    const update = await call(
      'PUT',
      `/api/patients/${view.id}`,
      'staff',
      base({ lastName: view.lastName, referringProviderId: items.lakesideReferral }),
    );
    expect(update.statusCode).toBe(400);
    expect(fieldsOf(update.body)).toEqual({ referringProviderId: 'invalid' });
  });

  it("lets Lakeside use its own Referrals entry but not Riverside's", async () => {
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/patients/create',
      headers: tokens.admin2!.headers,
      payload: base({ referringProviderId: items.lakesideReferral }),
      remoteAddress: nextIp(),
    });
    expect(own.statusCode, own.body).toBe(201);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/patients/create',
      headers: tokens.admin2!.headers,
      payload: base({ referringProviderId: items.referral }),
      remoteAddress: nextIp(),
    });
    expect(fieldsOf(other.body)).toEqual({ referringProviderId: 'invalid' });
  });

  it.each([
    ['referralSource', { referralSource: 99 }, 'invalid'],
    ['referralSource', { referralSource: 1.5 }, 'invalid'],
    ['diseaseStates', { diseaseStates: [999] }, 'invalid'],
    ['psychiatricHistory', { psychiatricHistory: [PSYCH_NONE, DEPRESSION] }, 'invalid'],
    ['surgicalHistory.0', { surgicalHistory: ['Spinal fusion'] }, 'invalid'],
    ['surgicalHistory', { surgicalHistory: 'Spinal fusion' }, 'invalid'],
    ['diseaseStates', { diseaseStates: Array.from({ length: 40 }, () => DIABETES) }, 'tooLong'],
    ['referringProviderId', { referringProviderId: 'not-an-id' }, 'idInvalid'],
  ] as const)('refuses a bad %s with 400 and its message key', async (field, extra, key) => {
    const response = await call('POST', '/api/patients/create', 'staff', base(extra as unknown as Partial<PatientPayloadInput>));
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response.body)[field]).toBe(key);
  });

  it('shows the success story read-only: a change of the record never writes it', async () => {
    const view = await create();
    await t.db
      .update(patients)
      .set({ successStory: 'I can walk my dog again.', successStorySharedAt: sql`'2026-01-15T16:00:00Z'::timestamptz` })
      .where(eq(patients.id, view.id));
    const read = (await call('GET', `/api/patients/${view.id}`, 'staff')).json<PatientView>();
    expect(read).toMatchObject({ successStory: 'I can walk my dog again.', successStorySharedAt: '2026-01-15T16:00:00.000Z' });
    const update = await call('PUT', `/api/patients/${view.id}`, 'staff', {
      ...base({ lastName: view.lastName }),
      successStory: 'Overwritten',
      successStorySharedAt: null,
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json<PatientView>()).toMatchObject({ successStory: 'I can walk my dog again.' });
  });
});
