import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleCode, type Role } from '@pathwell/contracts/roles';
import { activityLogs, instances, instanceSettings, managedItems, organisations, userInstances, users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { hashPassword } from '../../lib/secrets';
import { readSettings } from '../settings/settings.service';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
let gulfCoast: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  gulfCoast = (await t.db.select().from(organisations))[0]!.id;
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2', 'parent']) {
    tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  }
});
afterAll(async () => {
  await t?.close();
});

type As = string | { headers: Record<string, string> };
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  as: As,
  payload?: unknown,
  extra: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...(typeof as === 'string' ? tokens[as]!.headers : as.headers), ...extra },
    payload: payload as object | undefined,
    remoteAddress: nextIp(),
  });

let counter = 0;
async function newInstance(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const response = await call('POST', '/api/instances', 'manager', {
    name: `Harbor Pain Clinic ${counter}`,
    timeZoneId: 'America/New_York',
    ...overrides,
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; name: string; organisationId: string | null };
}

/** A user of a given instance written straight to the database, signed in. */
async function userOf(instanceId: string, role: Role) {
  counter += 1;
  const [row] = await t.db
    .insert(users)
    .values({
      email: `instance-user${counter}@pathwell.test`,
      firstName: 'Test',
      lastName: `User${counter}`,
      role: RoleCode[role],
      instanceId,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      status: 'active',
    })
    .returning();
  await t.db.insert(userInstances).values({ userId: row!.id, instanceId });
  return { row: row!, session: await signIn(t.app, row!.email) };
}

describe('GET /api/instances/current', () => {
  it('answers the instance the request acts for', async () => {
    expect((await call('GET', '/api/instances/current', 'staff')).json()).toEqual({
      id: riverside,
      name: 'Riverside Spine & Pain',
    });
    const switched = await call('GET', '/api/instances/current', 'parent', undefined, { clinicid: lakeside });
    expect(switched.json()).toEqual({ id: lakeside, name: 'Lakeside Pain Center' });
  });

  it('refuses a clinic the user does not belong to with 403 and a malformed header with 400', async () => {
    expect((await call('GET', '/api/instances/current', 'admin', undefined, { clinicid: lakeside })).statusCode).toBe(403);
    expect((await call('GET', '/api/instances/current', 'admin', undefined, { clinicid: 'nope' })).statusCode).toBe(400);
  });
});

describe('GET /api/instances', () => {
  it('shows a System Manager every instance, sorted by name, with its organisation and user count', async () => {
    const response = await call('GET', '/api/instances', 'manager');
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      id: string;
      name: string;
      organisationName: string;
      userCount: number;
      canManage: boolean;
    }[];
    const names = body.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const river = body.find((row) => row.id === riverside)!;
    expect(river).toMatchObject({ organisationName: 'Gulf Coast Pain Partners', canManage: true, timeZoneId: 'America/Chicago' });
    expect(river.userCount).toBeGreaterThanOrEqual(5);
  });

  it('shows an Admin only their own instance, read-only for organisation and active flag', async () => {
    const response = await call('GET', '/api/instances', 'admin');
    expect(response.json().map((row: { id: string }) => row.id)).toEqual([riverside]);
    expect(response.json()[0].canManage).toBe(false);
  });

  it("answers 404 for another clinic's instance and 400 for a bad id", async () => {
    expect((await call('GET', `/api/instances/${riverside}`, 'admin')).statusCode).toBe(200);
    expect((await call('GET', `/api/instances/${lakeside}`, 'admin')).statusCode).toBe(404);
    expect((await call('GET', '/api/instances/xyz', 'admin')).statusCode).toBe(400);
  });

  it('refuses Doctors and Staff with 403', async () => {
    expect((await call('GET', '/api/instances', 'doctor')).statusCode).toBe(403);
    expect((await call('GET', '/api/instances', 'staff')).statusCode).toBe(403);
  });
});

describe('POST /api/instances', () => {
  it('creates an instance with its identity settings, default settings and default managed lists', async () => {
    const created = await newInstance({ organisationId: gulfCoast });
    const settings = await readSettings(t.db, created.id);
    expect(settings).toMatchObject({ clinicName: created.name, timeZoneId: 'America/New_York', autoLogoutTime: '30' });
    expect(['-5', '-4']).toContain(settings.timeZoneOffsetHours);
    const rooms = await t.db
      .select()
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, created.id), eq(managedItems.listType, 'rooms')));
    expect(rooms.map((room) => room.name)).toEqual(['Room 1', 'Room 2', 'Room 3', 'Room 4']);
    const bodyLocations = await t.db
      .select()
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, created.id), eq(managedItems.listType, 'bodylocations')));
    expect(bodyLocations.length).toBeGreaterThan(0);
    expect(created.organisationId).toBe(gulfCoast);
    const log = await t.db.select().from(activityLogs).where(eq(activityLogs.instanceId, created.id));
    expect(log.map((row) => [row.area, row.action])).toContainEqual(['Admin Configuration', 'Created']);
  });

  it('lets a System Manager act for the new instance, whose session carries its name', async () => {
    const created = await newInstance();
    const session = await call('GET', '/api/session', 'manager', undefined, { clinicid: created.id });
    expect(session.json().instance).toMatchObject({ id: created.id, name: created.name });
  });

  it('answers 400 with field errors for bad input', async () => {
    const response = await call('POST', '/api/instances', 'manager', { name: '', timeZoneId: 'Mars/Olympus_Mons' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ name: 'nameRequired', timeZoneId: 'invalid' });
    const noOrg = await call('POST', '/api/instances', 'manager', {
      name: 'Orphan',
      timeZoneId: 'America/Chicago',
      organisationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.json().fields).toEqual({ organisationId: 'invalid' });
  });

  it('refuses Admins with 403', async () => {
    const response = await call('POST', '/api/instances', 'admin', { name: 'Mine', timeZoneId: 'America/Chicago' });
    expect(response.statusCode).toBe(403);
  });
});

describe('PUT /api/instances/{id}', () => {
  it("renaming an instance renames the clinicName setting, so the clinic's page title follows", async () => {
    const created = await newInstance();
    const response = await call('PUT', `/api/instances/${created.id}`, 'manager', {
      name: 'Bayview Spine',
      organisationId: null,
      isActive: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe('Bayview Spine');
    const [setting] = await t.db
      .select()
      .from(instanceSettings)
      .where(and(eq(instanceSettings.instanceId, created.id), eq(instanceSettings.configurationId, 'clinicName')));
    expect(setting?.configurationValue).toBe('Bayview Spine');
    const session = await call('GET', '/api/session', 'manager', undefined, { clinicid: created.id });
    expect(session.json().instance.name).toBe('Bayview Spine');
  });

  it('an Admin renames their own instance but cannot move it or switch it off', async () => {
    const created = await newInstance({ organisationId: gulfCoast });
    const { session } = await userOf(created.id, 'Admin');
    const rename = await call('PUT', `/api/instances/${created.id}`, session, {
      name: 'Renamed By Admin',
      organisationId: gulfCoast,
      isActive: true,
    });
    expect(rename.statusCode).toBe(200);
    const off = await call('PUT', `/api/instances/${created.id}`, session, {
      name: 'Renamed By Admin',
      organisationId: gulfCoast,
      isActive: false,
    });
    expect(off.statusCode).toBe(403);
    const move = await call('PUT', `/api/instances/${created.id}`, session, {
      name: 'Renamed By Admin',
      organisationId: null,
      isActive: true,
    });
    expect(move.statusCode).toBe(403);
    const [row] = await t.db.select().from(instances).where(eq(instances.id, created.id));
    expect(row).toMatchObject({ isActive: true, organisationId: gulfCoast });
  });

  it("answers 404 for another clinic's instance, 403 for Doctors and 400 for bad input", async () => {
    const body = { name: 'Lake', organisationId: gulfCoast, isActive: true };
    expect((await call('PUT', `/api/instances/${lakeside}`, 'admin', body)).statusCode).toBe(404);
    expect((await call('PUT', `/api/instances/${riverside}`, 'doctor', body)).statusCode).toBe(403);
    const bad = await call('PUT', `/api/instances/${riverside}`, 'admin', { name: ' ', isActive: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: 'nameRequired' });
  });
});

describe('DELETE /api/instances/{id}', () => {
  it("switches the instance off: the row and its activity log stay, and its users' sessions end", async () => {
    const created = await newInstance();
    const { session } = await userOf(created.id, 'Staff');
    const response = await call('DELETE', `/api/instances/${created.id}`, 'manager');
    expect(response.statusCode).toBe(204);
    const [row] = await t.db.select().from(instances).where(eq(instances.id, created.id));
    expect(row?.isActive).toBe(false);
    const log = await t.db.select().from(activityLogs).where(eq(activityLogs.instanceId, created.id));
    expect(log.map((entry) => entry.action)).toEqual(expect.arrayContaining(['Created', 'Deleted']));
    expect((await t.app.inject({ method: 'GET', url: '/api/session', headers: session.headers })).statusCode).toBe(401);
    const listed = (await call('GET', '/api/instances', 'manager')).json() as { id: string; isActive: boolean }[];
    expect(listed.find((instance) => instance.id === created.id)?.isActive).toBe(false);
  });

  it('refuses to switch off the instance the System Manager belongs to', async () => {
    expect((await call('DELETE', `/api/instances/${riverside}`, 'manager')).statusCode).toBe(403);
    const [row] = await t.db.select().from(instances).where(eq(instances.id, riverside));
    expect(row?.isActive).toBe(true);
  });

  it('refuses Admins with 403 and answers 404 for an unknown instance', async () => {
    expect((await call('DELETE', `/api/instances/${riverside}`, 'admin')).statusCode).toBe(403);
    expect((await call('DELETE', '/api/instances/00000000-0000-4000-8000-000000000000', 'manager')).statusCode).toBe(404);
  });
});

describe('parent organisations (/api/clinics)', () => {
  it('a System Manager sees every organisation with all its instances', async () => {
    const response = await call('GET', '/api/clinics', 'manager');
    expect(response.statusCode).toBe(200);
    const gulf = response.json().find((row: { id: string }) => row.id === gulfCoast);
    expect(gulf.canManage).toBe(true);
    expect(gulf.instances.map((instance: { id: string }) => instance.id)).toEqual(expect.arrayContaining([riverside, lakeside]));
  });

  it('a parent Admin of every member may manage it; a single-clinic Admin sees only their instance, read-only', async () => {
    const first = await newInstance();
    const second = await newInstance();
    const group = (
      await call('POST', '/api/clinics', 'manager', { name: 'Twin Group', instanceIds: [first.id, second.id] })
    ).json();
    const parentUser = await userOf(first.id, 'Admin');
    await t.db.update(users).set({ isParent: true }).where(eq(users.id, parentUser.row.id));
    await t.db.insert(userInstances).values({ userId: parentUser.row.id, instanceId: second.id });
    const parentView = (await call('GET', `/api/clinics/${group.id}`, parentUser.session)).json();
    expect(parentView.canManage).toBe(true);
    expect(parentView.instances).toHaveLength(2);

    const { session } = await userOf(first.id, 'Admin');
    const adminView = (await call('GET', `/api/clinics/${group.id}`, session)).json();
    expect(adminView).toMatchObject({ canManage: false, instances: [{ id: first.id, name: first.name }] });
    const rename = await call('PUT', `/api/clinics/${group.id}`, session, { name: 'Mine now', instanceIds: [first.id] });
    expect(rename.statusCode).toBe(403);
  });

  it('an Admin creates, renames and deletes an organisation of their own instances', async () => {
    const created = await newInstance();
    const { session } = await userOf(created.id, 'Admin');
    const made = await call('POST', '/api/clinics', session, { name: 'North Group', instanceIds: [created.id] });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ name: 'North Group', canManage: true, instances: [{ id: created.id }] });
    const id = made.json().id;
    const renamed = await call('PUT', `/api/clinics/${id}`, session, { name: 'North Partners', instanceIds: [created.id] });
    expect(renamed.json().name).toBe('North Partners');
    expect((await call('DELETE', `/api/clinics/${id}`, session)).statusCode).toBe(204);
    const [instance] = await t.db.select().from(instances).where(eq(instances.id, created.id));
    expect(instance?.organisationId).toBeNull();
    expect((await call('GET', `/api/clinics/${id}`, session)).statusCode).toBe(404);
    const [row] = await t.db.select().from(organisations).where(eq(organisations.id, id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const log = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
    expect(log.map((entry) => entry.action)).toEqual(['Created', 'Updated', 'Deleted']);
  });

  it('an Admin can only group instances they work in, and at least one', async () => {
    const foreign = await call('POST', '/api/clinics', 'admin', { name: 'Grab', instanceIds: [lakeside] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields).toEqual({ instanceIds: 'invalid' });
    const empty = await call('POST', '/api/clinics', 'admin', { name: 'Empty', instanceIds: [] });
    expect(empty.json().fields).toEqual({ instanceIds: 'required' });
    const bad = await call('POST', '/api/clinics', 'admin', { name: '', instanceIds: ['x'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: 'nameRequired', 'instanceIds.0': 'idInvalid' });
  });

  it("answers 404 for another clinic's organisation and 403 for Doctors and Staff", async () => {
    const created = await newInstance();
    const made = await call('POST', '/api/clinics', 'manager', { name: 'Private Group', instanceIds: [created.id] });
    const id = made.json().id;
    expect((await call('GET', `/api/clinics/${id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('PUT', `/api/clinics/${id}`, 'admin2', { name: 'x', instanceIds: [lakeside] })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/clinics/${id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', '/api/clinics', 'doctor')).statusCode).toBe(403);
    expect((await call('POST', '/api/clinics', 'staff', { name: 'x', instanceIds: [] })).statusCode).toBe(403);
  });

  it("'get clinics' gives a parent user the clinics they belong to, name and id, sorted by name", async () => {
    const created = await newInstance({ name: 'Aardvark Pain Institute' });
    await t.db.insert(userInstances).values({ userId: tokens.parent!.id, instanceId: created.id });
    const response = await call('GET', '/api/parent/clinics', 'parent');
    expect(response.json()).toEqual([
      { id: created.id, name: 'Aardvark Pain Institute' },
      { id: lakeside, name: 'Lakeside Pain Center' },
      { id: riverside, name: 'Riverside Spine & Pain' },
    ]);
  });
});
