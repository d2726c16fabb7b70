import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldKinds } from '@pathwell/contracts/enumerations';
import { findManagedList, type ManagedItem } from '@pathwell/contracts/managed-lists';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { instances, managedItems } from '../../db/schema';
import { instanceDefaults, seedInstanceDefaults } from './instance-defaults';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const names = async (email: string, url: string) => {
  const { headers } = await signIn(t.app, email);
  const response = await t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: ManagedItem[] }>().data.map((item) => item.name);
};

describe('default lists of a clinic', () => {
  it.each(['admin@pathwell.demo', 'admin2@pathwell.demo'])(
    'the demo clinic of %s starts with rooms 1 to 4 and body locations',
    async (email) => {
      expect(await names(email, '/api/rooms')).toEqual(['Room 1', 'Room 2', 'Room 3', 'Room 4']);
      const locations = await names(email, '/api/bodylocations?pageSize=999');
      expect(locations).toEqual(expect.arrayContaining(['Lower back', 'Neck', 'Knee', 'Sacroiliac joint']));
      expect(await names(email, '/api/interventionaldirections')).toEqual(['Left', 'Right', 'Bilateral', 'Midline']);
    },
  );

  it.each(customFieldKinds)('the demo clinics have values for the custom field %s', async (kind) => {
    expect((await names('staff@pathwell.demo', `/api/customfields?kind=${kind}`)).length).toBeGreaterThan(1);
    expect((await names('admin2@pathwell.demo', `/api/customfields?kind=${kind}`)).length).toBeGreaterThan(1);
  });

  it('race and ethnicity are the OMB categories with their CDC codes', async () => {
    const rows = await t.db
      .select({ name: managedItems.name, attributes: managedItems.attributes })
      .from(managedItems)
      .where(eq(managedItems.listType, 'customfield:ethnicity'));
    expect(rows.map((row) => [row.name, row.attributes.code])).toEqual(
      expect.arrayContaining([
        ['Hispanic or Latino', '2135-2'],
        ['Not Hispanic or Latino', '2186-5'],
      ]),
    );
    const { headers } = await signIn(t.app, 'admin@pathwell.demo');
    const race = await t.app.inject({
      method: 'GET',
      url: '/api/customfields?kind=race&search=white',
      headers,
      remoteAddress: nextIp(),
    });
    expect(race.json().data[0]).toMatchObject({ name: 'White', attributes: { code: '2106-3', nameEs: 'Blanco' } });
  });

  it('every default passes the rules of its list, so the admin page can save it unchanged', () => {
    for (const [listType, entries] of Object.entries(instanceDefaults)) {
      const list = findManagedList(listType);
      expect(list?.listType, listType).toBe(listType);
      for (const entry of entries)
        expect(list!.attributes.safeParse(entry.attributes ?? {}).success, `${listType} ${entry.name}`).toBe(true);
      expect(new Set(entries.map((entry) => entry.name.toLowerCase())).size, listType).toBe(entries.length);
    }
  });

  it('a new clinic gets the defaults, and running the seed again adds nothing', async () => {
    const [clinic] = await t.db.insert(instances).values({ name: 'Hillside Spine' }).returning();
    await t.db.transaction((tx) => seedInstanceDefaults(tx, clinic!.id));
    const count = async () =>
      Number(
        (
          await t.db
            .select({ value: sql<number>`count(*)::int` })
            .from(managedItems)
            .where(eq(managedItems.instanceId, clinic!.id))
        )[0]?.value,
      );
    const expected = Object.values(instanceDefaults).reduce((sum, entries) => sum + entries.length, 0);
    expect(await count()).toBe(expected);
    await seedInstanceDefaults(t.db, clinic!.id);
    expect(await count()).toBe(expected);
    const [room] = await t.db
      .select()
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, clinic!.id), eq(managedItems.name, 'Room 3')));
    expect(room).toMatchObject({ listType: 'rooms', sortOrder: 3, attributes: { capacity: 1 }, isActive: true });
  });
});
