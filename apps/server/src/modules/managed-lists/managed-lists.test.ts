import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedLists, type ManagedItem, type ManagedListDefinition } from '@pathwell/contracts/managed-lists';
import { activityLogs, managedItems } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
const who = ['admin', 'manager', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as], payload: payload as object | undefined, remoteAddress: nextIp() });

type Sample = { valid: Record<string, unknown>; invalid: Record<string, unknown>; field: string; message: string };

const customFieldSample: Sample = {
  valid: { nameEs: 'Ejemplo', code: 'X1' },
  invalid: { code: 'x'.repeat(41) },
  field: 'code',
  message: 'tooLong',
};

/** For each list: attributes the server keeps, and attributes it refuses with the field and message it names. */
const samples: Record<string, Sample> = {
  medicines: {
    valid: { strength: 5, unit: 'mg', route: 'oral', isOpioid: true, mmeConversionFactor: 1.5 },
    invalid: { strength: 5, isOpioid: true },
    field: 'mmeConversionFactor',
    message: 'mmeFactorRequired',
  },
  bodylocations: {
    valid: { bodyRegion: 9, hasSide: false, nameEs: 'Zona lumbar' },
    invalid: { bodyRegion: 99 },
    field: 'bodyRegion',
    message: 'invalid',
  },
  studygroups: {
    valid: { description: 'SCS trial cohort' },
    invalid: { description: 'x'.repeat(501) },
    field: 'description',
    message: 'tooLong',
  },
  rooms: { valid: { capacity: 2 }, invalid: { capacity: 0 }, field: 'capacity', message: 'numberOutOfRange' },
  'interventionalitems:1': {
    valid: { cptCode: '64483', description: 'Transforaminal epidural steroid injection, lumbar' },
    invalid: { cptCode: '6448' },
    field: 'cptCode',
    message: 'cptCodeInvalid',
  },
  'interventionalitems:2': {
    valid: { cptCode: '20610' },
    invalid: { cptCode: 'ABCDE' },
    field: 'cptCode',
    message: 'cptCodeInvalid',
  },
  'interventionalitems:3': {
    valid: { bodyRegion: 12 },
    invalid: { bodyRegion: 'knee' },
    field: 'bodyRegion',
    message: 'invalid',
  },
  interventionaldirections: {
    valid: { abbreviation: 'C' },
    invalid: { abbreviation: 'x'.repeat(11) },
    field: 'abbreviation',
    message: 'tooLong',
  },
  interventionallocations: {
    valid: { spinalRegion: 3 },
    invalid: { spinalRegion: 9 },
    field: 'spinalRegion',
    message: 'invalid',
  },
  adainterventionallocations: { valid: { code: 'A1' }, invalid: { code: 'x'.repeat(21) }, field: 'code', message: 'tooLong' },
  referrals: {
    valid: {
      source: 1,
      npi: '1234567893',
      practice: 'Austin Orthopedics',
      phone: '(512) 555-0100',
      email: 'front@austinortho.example',
    },
    invalid: { npi: '1234567890' },
    field: 'npi',
    message: 'npiInvalid',
  },
  resourcetypes: {
    valid: { description: 'Short videos' },
    invalid: { description: 'x'.repeat(501) },
    field: 'description',
    message: 'tooLong',
  },
  painpumpmedicines: {
    valid: { concentration: 10, unit: 'mg/mL' },
    invalid: { unit: 'mg/mL' },
    field: 'concentration',
    message: 'required',
  },
  ...Object.fromEntries(
    managedLists.filter((list) => list.listType.startsWith('customfield:')).map((list) => [list.listType, customFieldSample]),
  ),
};

const variantQuery = (list: ManagedListDefinition) => (list.variant ? `${list.variant.param}=${list.variant.value}` : '');
const collection = (list: ManagedListDefinition, query = '') => {
  const parts = [variantQuery(list), query].filter(Boolean).join('&');
  return parts ? `${list.apiPath}?${parts}` : list.apiPath;
};
const one = (list: ManagedListDefinition, id: string) => `${list.apiPath}/${id}`;

it('every list of the catalogue has a sample here, so no list goes untested', () => {
  expect(managedLists.map((list) => list.listType).filter((listType) => !samples[listType])).toEqual([]);
});

describe.each(managedLists.map((list) => ({ listType: list.listType, list })))('$listType', ({ listType, list }) => {
  const sample = samples[listType]!;
  const tag = listType.replace(/\W/g, '');
  const create = (name: string, as: Who = 'admin', attributes = sample.valid, extra: Record<string, unknown> = {}) =>
    call('POST', collection(list), as, { name, attributes, ...extra });

  it('an admin adds an entry, reads it back, and the activity log records it', async () => {
    const response = await create(`Alpha ${tag}`);
    expect(response.statusCode).toBe(201);
    const created = response.json<ManagedItem>();
    expect(created).toMatchObject({ listType, name: `Alpha ${tag}`, isActive: true, sortOrder: 0 });
    for (const [key, value] of Object.entries(sample.valid)) {
      expect(created.attributes[key], key).toEqual(typeof value === 'string' && key === 'cptCode' ? value.toUpperCase() : value);
    }
    const read = await call('GET', one(list, created.id), 'admin');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
    const logged = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, created.id), eq(activityLogs.action, 'Created')));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ area: 'Admin Configuration', targetType: listType, actorEmail: 'admin@pathwell.demo' });
  });

  it('lists entries with search by name, sorting, the active filter and paging', async () => {
    for (const [index, letter] of ['B', 'A', 'C'].entries()) {
      const response = await create(`Sorted ${tag} ${letter}`, 'admin', sample.valid, {
        sortOrder: index,
        isActive: letter !== 'C',
      });
      expect(response.statusCode).toBe(201);
    }
    const search = `sorted ${tag}`;
    const byName = await call(
      'GET',
      collection(list, `search=${encodeURIComponent(search)}&sortBy=name&sortDirection=desc`),
      'admin',
    );
    expect(byName.statusCode).toBe(200);
    expect(byName.json()).toMatchObject({ totalRecords: 3, pageNumber: 0, pageSize: 15 });
    expect(byName.json<{ data: ManagedItem[] }>().data.map((item) => item.name)).toEqual([
      `Sorted ${tag} C`,
      `Sorted ${tag} B`,
      `Sorted ${tag} A`,
    ]);
    const byOrder = await call('GET', collection(list, `search=${encodeURIComponent(search)}&sortBy=sortOrder`), 'admin');
    expect(byOrder.json<{ data: ManagedItem[] }>().data.map((item) => item.name.slice(-1))).toEqual(['B', 'A', 'C']);
    const page = await call(
      'GET',
      collection(list, `search=${encodeURIComponent(search)}&sortBy=name&pageSize=2&pageNumber=1`),
      'admin',
    );
    expect(page.json()).toMatchObject({ totalRecords: 3, pageNumber: 1, pageSize: 2 });
    expect(page.json<{ data: ManagedItem[] }>().data.map((item) => item.name)).toEqual([`Sorted ${tag} C`]);
    const inactive = await call('GET', collection(list, `search=${encodeURIComponent(search)}&active=false`), 'admin');
    expect(inactive.json<{ data: ManagedItem[] }>().data.map((item) => item.name)).toEqual([`Sorted ${tag} C`]);
    const unsorted = await call('GET', collection(list, 'sortBy=attributes'), 'admin');
    expect(unsorted.statusCode).toBe(400);
    expect(unsorted.json().fields).toHaveProperty('sortBy');
  });

  it('an admin updates an entry; a name already in the list is refused with 409, whatever its case', async () => {
    const first = (await create(`First ${tag}`)).json<ManagedItem>();
    const second = (await create(`Second ${tag}`)).json<ManagedItem>();
    const updated = await call('PUT', one(list, second.id), 'admin', {
      name: `Second ${tag} renamed`,
      attributes: sample.valid,
      isActive: false,
      sortOrder: 7,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: second.id, name: `Second ${tag} renamed`, isActive: false, sortOrder: 7 });
    const clashOnUpdate = await call('PUT', one(list, second.id), 'admin', {
      name: first.name.toUpperCase(),
      attributes: sample.valid,
    });
    expect(clashOnUpdate.statusCode).toBe(409);
    expect(clashOnUpdate.json()).toMatchObject({ code: 'CONFLICT', fields: { name: 'nameTaken' } });
    const clashOnCreate = await create(`  first ${tag}  `);
    expect(clashOnCreate.statusCode).toBe(409);
    expect(clashOnCreate.json().fields).toEqual({ name: 'nameTaken' });
  });

  it('bad attributes and a missing name answer 400 with the field that is wrong', async () => {
    const badAttributes = await create(`Bad ${tag}`, 'admin', sample.invalid);
    expect(badAttributes.statusCode).toBe(400);
    expect(badAttributes.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { [`attributes.${sample.field}`]: sample.message },
    });
    const noName = await call('POST', collection(list), 'admin', { name: '  ', attributes: sample.valid });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields).toMatchObject({ name: 'nameRequired' });
    const [stored] = await t.db
      .select()
      .from(managedItems)
      .where(and(eq(managedItems.listType, listType), eq(managedItems.name, `Bad ${tag}`)));
    expect(stored).toBeUndefined();
  });

  it('deleting is soft: the entry leaves the list and its name can be used again, the row stays', async () => {
    const created = (await create(`Gone ${tag}`)).json<ManagedItem>();
    const deleted = await call('DELETE', one(list, created.id), 'admin');
    expect(deleted.statusCode).toBe(204);
    expect((await call('GET', one(list, created.id), 'admin')).statusCode).toBe(404);
    const listed = await call('GET', collection(list, `search=${encodeURIComponent(`Gone ${tag}`)}`), 'admin');
    expect(listed.json().totalRecords).toBe(0);
    const [row] = await t.db.select().from(managedItems).where(eq(managedItems.id, created.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await create(`Gone ${tag}`)).statusCode).toBe(201);
    expect((await call('DELETE', one(list, created.id), 'admin')).statusCode).toBe(404);
  });

  it("another clinic's admin gets 404 for the entry and does not see it in their list", async () => {
    const created = (await create(`Private ${tag}`)).json<ManagedItem>();
    expect((await call('GET', one(list, created.id), 'admin2')).statusCode).toBe(404);
    const update = await call('PUT', one(list, created.id), 'admin2', { name: 'Taken over', attributes: sample.valid });
    expect(update.statusCode).toBe(404);
    expect((await call('DELETE', one(list, created.id), 'admin2')).statusCode).toBe(404);
    const theirs = await call('GET', collection(list, `search=${encodeURIComponent(`Private ${tag}`)}`), 'admin2');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().totalRecords).toBe(0);
    const [row] = await t.db.select().from(managedItems).where(eq(managedItems.id, created.id));
    expect(row).toMatchObject({ name: `Private ${tag}`, deletedAt: null });
  });

  it('Staff and Doctors read the list (selectors need it) but cannot add, change or delete', async () => {
    const created = (await create(`Shared ${tag}`)).json<ManagedItem>();
    for (const reader of ['staff', 'doctor'] as const) {
      const listed = await call('GET', collection(list, `search=${encodeURIComponent(`Shared ${tag}`)}`), reader);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().totalRecords).toBe(1);
      expect((await call('GET', one(list, created.id), reader)).statusCode).toBe(200);
    }
    expect((await create(`Staff ${tag}`, 'staff')).statusCode).toBe(403);
    expect((await call('PUT', one(list, created.id), 'staff', { name: 'Changed', attributes: sample.valid })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', one(list, created.id), 'doctor')).statusCode).toBe(403);
    expect((await call('GET', one(list, created.id), 'admin')).json().name).toBe(`Shared ${tag}`);
  });

  it('a System Manager manages the list too', async () => {
    const response = await create(`Manager ${tag}`, 'manager');
    expect(response.statusCode).toBe(201);
  });
});

describe('lists that share one path', () => {
  const procedures = managedLists.find((list) => list.listType === 'interventionalitems:1')!;
  const bodyParts = managedLists.find((list) => list.listType === 'interventionalitems:3')!;

  it('interventional items need a valid type, and a custom field list needs a known kind', async () => {
    const noType = await call('GET', '/api/interventionalitems', 'admin');
    expect(noType.statusCode).toBe(400);
    expect(noType.json().fields).toEqual({ type: 'invalid' });
    const badType = await call('POST', '/api/interventionalitems?type=4', 'admin', { name: 'X' });
    expect(badType.statusCode).toBe(400);
    const badKind = await call('GET', '/api/customfields?kind=shoe-size', 'admin');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().fields).toEqual({ kind: 'invalid' });
  });

  it('an entry of one type stays in its own list, and is edited through its id alone', async () => {
    const created = (
      await call('POST', '/api/interventionalitems?type=1', 'admin', {
        name: 'Medial branch block',
        attributes: { cptCode: '64493' },
      })
    ).json<ManagedItem>();
    const bodyPartList = await call('GET', '/api/interventionalitems?type=3&search=medial', 'admin');
    expect(bodyPartList.json().totalRecords).toBe(0);
    const updated = await call('PUT', `/api/interventionalitems/${created.id}`, 'admin', {
      name: 'Medial branch block, lumbar',
      attributes: { cptCode: 'x' },
    });
    // The procedure's own rules apply, not the body part's, because the stored entry decides its list.
    expect(updated.statusCode).toBe(400);
    expect(updated.json().fields).toEqual({ 'attributes.cptCode': 'cptCodeInvalid' });
    expect(procedures.listType).not.toBe(bodyParts.listType);
  });

  it("an entry is not reachable through another list's path", async () => {
    const room = (
      await call('POST', '/api/rooms', 'admin', { name: 'Procedure suite', attributes: { capacity: 3 } })
    ).json<ManagedItem>();
    expect((await call('GET', `/api/medicines/${room.id}`, 'admin')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/customfields/${room.id}`, 'admin')).statusCode).toBe(404);
    expect((await call('GET', `/api/rooms/${room.id}`, 'admin')).statusCode).toBe(200);
  });

  it('search treats % and _ as letters', async () => {
    await call('POST', '/api/resourceTypes', 'admin', { name: 'Handouts' });
    const wildcard = await call('GET', '/api/resourceTypes?search=%25', 'admin');
    expect(wildcard.statusCode).toBe(200);
    expect(wildcard.json().totalRecords).toBe(0);
  });

  it('a malformed id answers 400, not 500', async () => {
    const response = await call('GET', '/api/medicines/not-an-id', 'admin');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ id: 'idInvalid' });
  });

  it('the OpenAPI document lists the managed-list paths', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    for (const path of ['/api/medicines', '/api/interventionalitems/{id}', '/api/customfields', '/api/resourceTypes']) {
      expect(paths).toContain(path);
    }
  });
});
