import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleCode, type Role } from '@pathwell/contracts/roles';
import { isValidNpi } from '@pathwell/contracts/user-admin';
import { activityLogs, instances, userInstances, users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { hashPassword } from '../../lib/secrets';
import sharp from 'sharp';
import { dataUrl, FAKE_JPEG, hasExif, phonePhoto } from '../../../test/phone-photo';
import { createTestApp, latestEmailTo, linkParams, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
let passwordHash: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const who of ['admin', 'manager', 'doctor', 'staff', 'admin2', 'parent']) {
    tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  }
});
afterAll(async () => {
  await t?.close();
});

type As = keyof typeof tokens | { headers: Record<string, string> };
const headersOf = (as: As, extra: Record<string, string> = {}) => ({
  ...(typeof as === 'string' ? tokens[as]!.headers : as.headers),
  ...extra,
});
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  as: As,
  payload?: unknown,
  extra?: Record<string, string>,
) =>
  t.app.inject({ method, url, headers: headersOf(as, extra), payload: payload as object | undefined, remoteAddress: nextIp() });

let counter = 0;
/** A signed-in-ready user written straight to the database, so each test has its own. */
async function makeUser(
  role: Role,
  clinic: 'riverside' | 'lakeside' = 'riverside',
  extra: Partial<typeof users.$inferInsert> = {},
) {
  counter += 1;
  const home = clinic === 'riverside' ? riverside : lakeside;
  const [row] = await t.db
    .insert(users)
    .values({
      email: `user${counter}.${role.toLowerCase()}@pathwell.test`,
      firstName: `First${counter}`,
      lastName: `Last${counter}`,
      role: RoleCode[role],
      instanceId: home,
      passwordHash,
      status: 'active',
      ...extra,
    })
    .returning();
  await t.db.insert(userInstances).values({ userId: row!.id, instanceId: home });
  return row!;
}

const newUser = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    firstName: 'Nina',
    lastName: `Novak${counter}`,
    email: `nina${counter}@pathwell.test`,
    role: 'Staff',
    isParent: false,
    isChild: false,
    clinicIds: [],
    twoFactorEnabled: false,
    isActive: true,
    ...overrides,
  };
};

async function activityFor(targetId: string) {
  return t.db
    .select()
    .from(activityLogs)
    .where(and(eq(activityLogs.targetId, targetId), eq(activityLogs.area, 'System Users')));
}

describe('NPI check digit', () => {
  it.each([
    ['1234567893', true],
    ['1245319599', true],
    ['1234567890', false],
    ['123456789', false],
    ['12345678931', false],
    ['12345678a3', false],
  ])('%s is %s', (npi, valid) => {
    expect(isValidNpi(npi)).toBe(valid);
  });
});

describe('POST /api/users/fetchAll', () => {
  it("lists the acting clinic's users, 15 per page by default, with the paged envelope", async () => {
    const response = await call('POST', '/api/users/fetchAll', 'admin', {});
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ pageNumber: 0, pageSize: 15 });
    const emails = body.data.map((user: { email: string }) => user.email);
    expect(emails).toEqual(
      expect.arrayContaining([
        'manager@pathwell.demo',
        'admin@pathwell.demo',
        'doctor@pathwell.demo',
        'staff@pathwell.demo',
        'parent@pathwell.demo',
      ]),
    );
    expect(emails).not.toContain('admin2@pathwell.demo');
    expect(body.totalRecords).toBeGreaterThanOrEqual(5);
    expect(body.data[0]).not.toHaveProperty('passwordHash');
    expect(body.data[0]).not.toHaveProperty('pinHash');
  });

  it('filters by first name, last name and email (case-insensitive, partial) and by role', async () => {
    const byFirst = await call('POST', '/api/users/fetchAll', 'admin', { firstName: 'dani' });
    expect(byFirst.json().data.map((user: { email: string }) => user.email)).toEqual(['doctor@pathwell.demo']);
    const byLast = await call('POST', '/api/users/fetchAll', 'admin', { lastName: 'CARTER' });
    expect(byLast.json().data.map((user: { email: string }) => user.email)).toEqual(['admin@pathwell.demo']);
    const byEmail = await call('POST', '/api/users/fetchAll', 'admin', { email: 'staff@' });
    expect(byEmail.json().data.map((user: { email: string }) => user.email)).toEqual(['staff@pathwell.demo']);
    const byRole = await call('POST', '/api/users/fetchAll', 'admin', { role: 'SystemManager' });
    expect(byRole.json().data.map((user: { role: string }) => user.role)).toEqual(['SystemManager']);
  });

  it('treats % and _ in a filter as plain characters', async () => {
    const response = await call('POST', '/api/users/fetchAll', 'admin', { email: '%' });
    expect(response.json()).toMatchObject({ totalRecords: 0, data: [] });
  });

  it('pages through the list sorted by last name', async () => {
    const all = (
      await call('POST', '/api/users/fetchAll', 'admin', { paginationFilter: { pageSize: 999, pageNumber: 0 } })
    ).json();
    const second = (
      await call('POST', '/api/users/fetchAll', 'admin', { paginationFilter: { pageSize: 2, pageNumber: 1 } })
    ).json();
    expect(second).toMatchObject({ pageNumber: 1, pageSize: 2, totalRecords: all.totalRecords });
    expect(second.data.map((user: { id: string }) => user.id)).toEqual(
      all.data.slice(2, 4).map((user: { id: string }) => user.id),
    );
    const lastNames = all.data.map((user: { lastName: string }) => user.lastName);
    expect(lastNames).toEqual([...lastNames].sort((a: string, b: string) => a.localeCompare(b)));
  });

  it('serves the doctor selector: role Doctor, page size 999, status 1 gives active doctors only', async () => {
    const off = await makeUser('Doctor', 'riverside', { status: 'inactive', firstName: 'Inactive' });
    const selector = await call('POST', '/api/users/fetchAll', 'admin', {
      role: 'Doctor',
      status: 1,
      paginationFilter: { pageSize: 999, pageNumber: 0 },
    });
    expect(selector.statusCode).toBe(200);
    const ids = selector.json().data.map((user: { id: string }) => user.id);
    expect(ids).toContain(tokens.doctor!.id);
    expect(ids).not.toContain(off.id);
    const withoutStatus = await call('POST', '/api/users/fetchAll', 'admin', {
      role: 'Doctor',
      paginationFilter: { pageSize: 999 },
    });
    expect(withoutStatus.json().data.map((user: { id: string }) => user.id)).toContain(off.id);
    const inactiveOnly = await call('POST', '/api/users/fetchAll', 'admin', { status: 0 });
    expect(inactiveOnly.json().data.every((user: { status: string }) => user.status === 'inactive')).toBe(true);
  });

  it('lets a Doctor read the list, with nothing marked as manageable', async () => {
    const response = await call('POST', '/api/users/fetchAll', 'doctor', {});
    expect(response.statusCode).toBe(200);
    expect(response.json().data.length).toBeGreaterThan(0);
    expect(response.json().data.every((user: { canManage: boolean }) => !user.canManage)).toBe(true);
  });

  it('marks users ranked above the viewer as not manageable for an Admin', async () => {
    const data = (await call('POST', '/api/users/fetchAll', 'admin', {})).json().data as { email: string; canManage: boolean }[];
    expect(data.find((user) => user.email === 'manager@pathwell.demo')?.canManage).toBe(false);
    expect(data.find((user) => user.email === 'staff@pathwell.demo')?.canManage).toBe(true);
  });

  it('refuses Staff with 403', async () => {
    expect((await call('POST', '/api/users/fetchAll', 'staff', {})).statusCode).toBe(403);
  });

  it('answers 400 with field errors for a bad filter', async () => {
    const response = await call('POST', '/api/users/fetchAll', 'admin', { paginationFilter: { pageSize: 0 }, role: 'Boss' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toEqual(expect.arrayContaining(['paginationFilter.pageSize', 'role']));
  });

  it("shows another clinic's admin only that clinic's users", async () => {
    const emails = (await call('POST', '/api/users/fetchAll', 'admin2', {}))
      .json()
      .data.map((user: { email: string }) => user.email);
    expect(emails).toContain('admin2@pathwell.demo');
    expect(emails).toContain('parent@pathwell.demo');
    expect(emails).not.toContain('staff@pathwell.demo');
  });

  it("lists every clinic's users in a parent user's all-clinics view", async () => {
    const response = await call(
      'POST',
      '/api/users/fetchAll',
      'parent',
      { paginationFilter: { pageSize: 999 } },
      { clinicid: 'all' },
    );
    const emails = response.json().data.map((user: { email: string }) => user.email);
    expect(emails).toEqual(expect.arrayContaining(['admin2@pathwell.demo', 'staff@pathwell.demo']));
  });
});

describe('GET /api/users/{id}/details', () => {
  it('gives the form everything it edits, including memberships, but no secrets', async () => {
    const response = await call('GET', `/api/users/${tokens.parent!.id}/details`, 'admin');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'parent@pathwell.demo', isParent: true, homeClinicId: riverside });
    // The Riverside admin does not act for Lakeside, so that membership is not shown to them.
    expect(response.json().clinicIds).toEqual([riverside]);
    const parentView = await call('GET', `/api/users/${tokens.parent!.id}/details`, 'parent');
    expect([...parentView.json().clinicIds].sort()).toEqual([riverside, lakeside].sort());
  });

  it("answers 404 for another clinic's user and 403 for Staff", async () => {
    expect((await call('GET', `/api/users/${tokens.staff!.id}/details`, 'admin2')).statusCode).toBe(404);
    expect((await call('GET', `/api/users/${tokens.doctor!.id}/details`, 'staff')).statusCode).toBe(403);
    expect((await call('GET', '/api/users/not-an-id/details', 'admin')).statusCode).toBe(400);
  });
});

describe('POST /api/users/register', () => {
  it('an Admin creates a Staff user, who sets a password from the welcome email and signs in', async () => {
    const input = newUser();
    const created = await call('POST', '/api/users/register', 'admin', input);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ email: input.email, role: 'Staff', status: 'invited', homeClinicId: riverside });
    const [stored] = await t.db.select().from(users).where(eq(users.email, input.email));
    expect(stored?.passwordHash).toBeNull();

    const email = await latestEmailTo(t.db, input.email);
    expect(email.template).toBe('welcome');
    expect(email.body).toContain('72 hours');
    const { path, id, token } = linkParams(email.body);
    expect(path).toBe('/set-password');
    expect(id).toBe(created.json().id);

    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      payload: { email: input.email, password: 'Welcome#2026' },
      remoteAddress: nextIp(),
    });
    expect(blocked.statusCode).toBe(401);
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/users/setPassword',
      payload: { id, token, newPassword: 'Welcome#2026', confirmNewPassword: 'Welcome#2026' },
      remoteAddress: nextIp(),
    });
    expect(set.statusCode).toBe(200);
    const signedIn = await signIn(t.app, input.email, 'Welcome#2026');
    const session = await t.app.inject({ method: 'GET', url: '/api/session', headers: signedIn.headers });
    expect(session.json()).toMatchObject({ user: { role: 'Staff' }, instance: { id: riverside } });

    const log = await activityFor(created.json().id);
    expect(log.map((row) => row.action)).toContain('Created');
  });

  it('an Admin cannot create a System Manager; a System Manager can', async () => {
    const refused = await call('POST', '/api/users/register', 'admin', newUser({ role: 'SystemManager' }));
    expect(refused.statusCode).toBe(403);
    const input = newUser({ role: 'SystemManager' });
    const allowed = await call('POST', '/api/users/register', 'manager', input);
    expect(allowed.statusCode).toBe(201);
    expect(allowed.json().role).toBe('SystemManager');
  });

  it('an Admin may create another Admin (same rank)', async () => {
    expect((await call('POST', '/api/users/register', 'admin', newUser({ role: 'Admin' }))).statusCode).toBe(201);
  });

  it('refuses Doctors and Staff with 403', async () => {
    expect((await call('POST', '/api/users/register', 'doctor', newUser())).statusCode).toBe(403);
    expect((await call('POST', '/api/users/register', 'staff', newUser())).statusCode).toBe(403);
  });

  it('refuses a registered email with 409 and a field error, whatever its case', async () => {
    const response = await call('POST', '/api/users/register', 'admin', newUser({ email: 'Doctor@Pathwell.DEMO' }));
    expect(response.statusCode).toBe(409);
    expect(response.json().fields).toEqual({ email: 'emailTaken' });
  });

  it('answers 400 with the validation messages of section 5', async () => {
    const empty = await call('POST', '/api/users/register', 'admin', { firstName: '', lastName: '', email: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toMatchObject({
      firstName: 'nameRequired',
      lastName: 'nameRequired',
      email: 'emailRequired',
      role: 'required',
    });
    const badEmail = await call('POST', '/api/users/register', 'admin', newUser({ email: 'no-at-sign' }));
    expect(badEmail.json().fields).toEqual({ email: 'emailInvalid' });
  });

  it('stores doctor details for a Doctor, checks the NPI and needs a clinical provider type', async () => {
    const badNpi = await call(
      'POST',
      '/api/users/register',
      'admin',
      newUser({ role: 'Doctor', npi: '1234567890', clinicalProviderType: 'Doctor' }),
    );
    expect(badNpi.json().fields).toEqual({ npi: 'npiInvalid' });
    const noType = await call('POST', '/api/users/register', 'admin', newUser({ role: 'Doctor', npi: '1234567893' }));
    expect(noType.json().fields).toEqual({ clinicalProviderType: 'required' });
    const doctor = await call(
      'POST',
      '/api/users/register',
      'admin',
      newUser({ role: 'Doctor', credentials: 'MD', npi: '1234567893', clinicalProviderType: 'Nurse Practitioner' }),
    );
    expect(doctor.statusCode).toBe(201);
    expect(doctor.json()).toMatchObject({ credentials: 'MD', npi: '1234567893', clinicalProviderType: 'Nurse Practitioner' });
    const staff = await call('POST', '/api/users/register', 'admin', newUser({ credentials: 'MD', npi: '1234567893' }));
    expect(staff.json()).toMatchObject({ credentials: null, npi: null, clinicalProviderType: null });
  });

  it('gives a parent user memberships only in clinics the actor works in', async () => {
    const byParent = await call('POST', '/api/users/register', 'parent', newUser({ isParent: true, clinicIds: [lakeside] }));
    expect(byParent.statusCode).toBe(201);
    expect([...byParent.json().clinicIds].sort()).toEqual([riverside, lakeside].sort());
    const byAdmin = await call('POST', '/api/users/register', 'admin', newUser({ isParent: true, clinicIds: [lakeside] }));
    expect(byAdmin.statusCode).toBe(400);
    expect(byAdmin.json().fields).toEqual({ clinicIds: 'invalid' });
  });

  it('creates a switched-off user without sending the welcome email', async () => {
    const input = newUser({ isActive: false });
    const response = await call('POST', '/api/users/register', 'admin', input);
    expect(response.json()).toMatchObject({ status: 'inactive', isActive: false });
    await expect(latestEmailTo(t.db, input.email)).rejects.toThrow();
  });

  it('takes in a self-signed-up account waiting for a clinic: it keeps its password and becomes active', async () => {
    const email = 'walkin@pathwell.test';
    await t.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { email, name: 'Walk In', password: 'Walkin#2026' },
      remoteAddress: nextIp(),
    });
    const { id, token } = linkParams((await latestEmailTo(t.db, email)).body);
    await t.app.inject({ method: 'POST', url: '/api/users/confirmSignup', payload: { id, token }, remoteAddress: nextIp() });
    const taken = await call('POST', '/api/users/register', 'admin', newUser({ email, firstName: 'Walk', lastName: 'In' }));
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toMatchObject({ id, status: 'active', homeClinicId: riverside });
    await signIn(t.app, email, 'Walkin#2026');
  });
});

describe('PUT /api/users/{id}', () => {
  it('updates a user and answers isSuccess true, writing the activity log', async () => {
    const target = await makeUser('Staff');
    const response = await call(
      'PUT',
      `/api/users/${target.id}`,
      'admin',
      newUser({ firstName: 'Renamed', lastName: target.lastName, email: target.email }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ isSuccess: true, firstName: 'Renamed' });
    expect((await activityFor(target.id)).some((row) => row.action === 'Updated')).toBe(true);
  });

  it('refuses to raise a user above the actor, and to edit a user ranked above them', async () => {
    const target = await makeUser('Staff');
    const raise = await call('PUT', `/api/users/${target.id}`, 'admin', newUser({ role: 'SystemManager', email: target.email }));
    expect(raise.statusCode).toBe(403);
    const manager = await makeUser('SystemManager');
    const edit = await call('PUT', `/api/users/${manager.id}`, 'admin', newUser({ role: 'Staff', email: manager.email }));
    expect(edit.statusCode).toBe(403);
    const [unchanged] = await t.db.select().from(users).where(eq(users.id, manager.id));
    expect(unchanged?.role).toBe(RoleCode.SystemManager);
  });

  it('refuses to change your own role or switch yourself off', async () => {
    const me = await makeUser('Admin');
    const session = await signIn(t.app, me.email);
    const base = { firstName: me.firstName, lastName: me.lastName, email: me.email };
    expect((await call('PUT', `/api/users/${me.id}`, session, newUser({ ...base, role: 'Staff' }))).statusCode).toBe(403);
    expect(
      (await call('PUT', `/api/users/${me.id}`, session, newUser({ ...base, role: 'Admin', isActive: false }))).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `/api/users/${me.id}`, session, newUser({ ...base, role: 'Admin', firstName: 'Me' }))).statusCode,
    ).toBe(200);
  });

  it("answers 404 for another clinic's user, 409 for a taken email and 400 for bad input", async () => {
    const target = await makeUser('Staff');
    expect((await call('PUT', `/api/users/${target.id}`, 'admin2', newUser({ email: target.email }))).statusCode).toBe(404);
    const taken = await call('PUT', `/api/users/${target.id}`, 'admin', newUser({ email: 'staff@pathwell.demo' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual({ email: 'emailTaken' });
    const bad = await call('PUT', `/api/users/${target.id}`, 'admin', newUser({ email: target.email, firstName: ' ' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ firstName: 'nameRequired' });
  });

  it("an admin sets a user's profile picture without its EXIF and GPS position; a file that only starts like a JPEG is 400", async () => {
    const target = await makeUser('Staff');
    const base = { firstName: target.firstName, lastName: target.lastName, email: target.email };
    const photo = await phonePhoto();
    expect(await hasExif(photo)).toBe(true);
    const saved = await call(
      'PUT',
      `/api/users/${target.id}`,
      'admin',
      newUser({ ...base, profileImage: dataUrl('image/jpeg', photo) }),
    );
    expect(saved.statusCode).toBe(200);
    const [row] = await t.db.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, target.id));
    const stored = Buffer.from(row!.profileImage!.split(',')[1]!, 'base64');
    expect((await sharp(stored).metadata()).format).toBe('jpeg');
    expect(await hasExif(stored)).toBe(false);

    const refused = await call(
      'PUT',
      `/api/users/${target.id}`,
      'admin',
      newUser({ ...base, profileImage: dataUrl('image/jpeg', FAKE_JPEG) }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ profileImage: 'invalid' });
    const created = await call(
      'POST',
      '/api/users/register',
      'admin',
      newUser({ profileImage: dataUrl('image/png', FAKE_JPEG) }),
    );
    expect(created.statusCode).toBe(400);
    expect(created.json().fields).toEqual({ profileImage: 'invalid' });
    const [after] = await t.db.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, target.id));
    expect(after!.profileImage).toBe(row!.profileImage);
  });

  it('refuses Doctors with 403', async () => {
    const target = await makeUser('Staff');
    expect((await call('PUT', `/api/users/${target.id}`, 'doctor', newUser({ email: target.email }))).statusCode).toBe(403);
  });

  it("switching a user off through the form ends that user's sessions", async () => {
    const target = await makeUser('Staff');
    const session = await signIn(t.app, target.email);
    const response = await call(
      'PUT',
      `/api/users/${target.id}`,
      'admin',
      newUser({ firstName: target.firstName, lastName: target.lastName, email: target.email, isActive: false }),
    );
    expect(response.json()).toMatchObject({ status: 'inactive', isSuccess: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/session', headers: session.headers })).statusCode).toBe(401);
  });

  it("keeps a parent user's memberships in clinics the actor does not work in", async () => {
    const parentUser = await makeUser('Staff', 'riverside', { isParent: true });
    await t.db.insert(userInstances).values({ userId: parentUser.id, instanceId: lakeside });
    const response = await call(
      'PUT',
      `/api/users/${parentUser.id}`,
      'admin',
      newUser({ email: parentUser.email, isParent: true, clinicIds: [] }),
    );
    expect(response.statusCode).toBe(200);
    const memberships = await t.db.select().from(userInstances).where(eq(userInstances.userId, parentUser.id));
    expect(memberships.map((row) => row.instanceId).sort()).toEqual([riverside, lakeside].sort());
  });
});

describe('DELETE /api/users/{id}', () => {
  it("soft-deletes a user: the row stays, the user's token stops working and the list no longer shows them", async () => {
    const target = await makeUser('Staff');
    const session = await signIn(t.app, target.email);
    const response = await call('DELETE', `/api/users/${target.id}`, 'admin');
    expect(response.statusCode).toBe(204);
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await t.app.inject({ method: 'GET', url: '/api/session', headers: session.headers })).statusCode).toBe(401);
    const list = await call('POST', '/api/users/fetchAll', 'admin', { email: target.email });
    expect(list.json().totalRecords).toBe(0);
    expect((await activityFor(target.id)).some((entry) => entry.action === 'Deleted')).toBe(true);
  });

  it('refuses to let a user delete themselves', async () => {
    const response = await call('DELETE', `/api/users/${tokens.admin!.id}`, 'admin');
    expect(response.statusCode).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, tokens.admin!.id));
    expect(row?.deletedAt).toBeNull();
  });

  it("answers 404 for another clinic's user, 403 for a user ranked above, 403 for Doctors and 400 for a bad id", async () => {
    const target = await makeUser('Staff');
    expect((await call('DELETE', `/api/users/${target.id}`, 'admin2')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/users/${tokens.manager!.id}`, 'admin')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/users/${target.id}`, 'doctor')).statusCode).toBe(403);
    expect((await call('DELETE', '/api/users/123', 'admin')).statusCode).toBe(400);
  });

  it('an admin of a clinic that is not the home of a parent user only removes them from that clinic', async () => {
    const parentUser = await makeUser('Staff', 'riverside', { isParent: true });
    await t.db.insert(userInstances).values({ userId: parentUser.id, instanceId: lakeside });
    expect((await call('DELETE', `/api/users/${parentUser.id}`, 'admin2')).statusCode).toBe(204);
    const [row] = await t.db.select().from(users).where(eq(users.id, parentUser.id));
    expect(row?.deletedAt).toBeNull();
    const memberships = await t.db.select().from(userInstances).where(eq(userInstances.userId, parentUser.id));
    expect(memberships.map((membership) => membership.instanceId)).toEqual([riverside]);
  });
});

describe('POST /api/users/sendwelcomeemail', () => {
  it('sends a fresh set-password link; the earlier one stops working', async () => {
    const input = newUser();
    const created = (await call('POST', '/api/users/register', 'admin', input)).json();
    const first = linkParams((await latestEmailTo(t.db, input.email)).body);
    const resent = await call('POST', '/api/users/sendwelcomeemail', 'admin', {
      id: created.id,
      role: 'Staff',
      originUrl: 'https://evil.example',
    });
    expect(resent.statusCode).toBe(200);
    const email = await latestEmailTo(t.db, input.email);
    // The link is built from the server's own public address, never from what the caller sends.
    expect(email.body).toContain(t.config.publicUrl);
    expect(email.body).not.toContain('evil.example');
    const second = linkParams(email.body);
    expect(second.token).not.toBe(first.token);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/users/setPassword',
      payload: { id: created.id, token: first.token, newPassword: 'Welcome#2026', confirmNewPassword: 'Welcome#2026' },
      remoteAddress: nextIp(),
    });
    expect(old.statusCode).toBe(400);
    expect((await activityFor(created.id)).some((row) => row.action === 'Sent')).toBe(true);
  });

  it('answers 409 for a user who already set up the account, 404 for another clinic, 403 for Staff, 400 for bad input', async () => {
    expect((await call('POST', '/api/users/sendwelcomeemail', 'admin', { id: tokens.staff!.id })).statusCode).toBe(409);
    const input = newUser();
    const created = (await call('POST', '/api/users/register', 'admin', input)).json();
    expect((await call('POST', '/api/users/sendwelcomeemail', 'admin2', { id: created.id })).statusCode).toBe(404);
    expect((await call('POST', '/api/users/sendwelcomeemail', 'staff', { id: created.id })).statusCode).toBe(403);
    const bad = await call('POST', '/api/users/sendwelcomeemail', 'admin', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('id');
  });
});

describe('PUT /api/users/{id}/twofactor', () => {
  it('an admin turns on two-factor sign-in for a user, whose next sign-in asks for a code', async () => {
    const target = await makeUser('Staff');
    const response = await call('PUT', `/api/users/${target.id}/twofactor`, 'admin', { enabled: true });
    expect(response.json().twoFactorEnabled).toBe(true);
    const signInAttempt = await t.app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      payload: { email: target.email, password: DEMO_PASSWORD },
      remoteAddress: nextIp(),
    });
    expect(signInAttempt.json().twoFactorRequired).toBe(true);
    expect((await activityFor(target.id)).some((row) => row.description?.includes('Two-factor'))).toBe(true);
  });

  it("answers 404 for another clinic's user, 403 for Doctors and 400 for bad input", async () => {
    const target = await makeUser('Staff');
    expect((await call('PUT', `/api/users/${target.id}/twofactor`, 'admin2', { enabled: true })).statusCode).toBe(404);
    expect((await call('PUT', `/api/users/${target.id}/twofactor`, 'doctor', { enabled: true })).statusCode).toBe(403);
    expect((await call('PUT', `/api/users/${target.id}/twofactor`, 'admin', { enabled: 'yes' })).statusCode).toBe(400);
  });
});

describe('PUT /api/users/{id}/active', () => {
  it('switching a user off ends their sessions and sign-in; switching on lets them back', async () => {
    const target = await makeUser('Doctor');
    const session = await signIn(t.app, target.email);
    const off = await call('PUT', `/api/users/${target.id}/active`, 'admin', { isActive: false });
    expect(off.json()).toMatchObject({ isActive: false, status: 'inactive' });
    expect((await t.app.inject({ method: 'GET', url: '/api/session', headers: session.headers })).statusCode).toBe(401);
    await expect(signIn(t.app, target.email)).rejects.toThrow(/401/);
    const on = await call('PUT', `/api/users/${target.id}/active`, 'admin', { isActive: true });
    expect(on.json()).toMatchObject({ isActive: true, status: 'active' });
    await signIn(t.app, target.email);
  });

  it('a user who never set a password returns to invited when switched back on', async () => {
    const created = (await call('POST', '/api/users/register', 'admin', newUser({ isActive: false }))).json();
    const on = await call('PUT', `/api/users/${created.id}/active`, 'admin', { isActive: true });
    expect(on.json().status).toBe('invited');
  });

  it('refuses to let a user switch themselves off, and answers 404/403/400 as usual', async () => {
    expect((await call('PUT', `/api/users/${tokens.admin!.id}/active`, 'admin', { isActive: false })).statusCode).toBe(403);
    const target = await makeUser('Staff');
    expect((await call('PUT', `/api/users/${target.id}/active`, 'admin2', { isActive: false })).statusCode).toBe(404);
    expect((await call('PUT', `/api/users/${target.id}/active`, 'staff', { isActive: false })).statusCode).toBe(403);
    expect((await call('PUT', `/api/users/${target.id}/active`, 'admin', {})).statusCode).toBe(400);
  });
});

describe('admin PIN', () => {
  it.each([['12345'], ['1234567'], ['12a456'], [undefined]])('a PIN of %s answers 400 pinInvalid', async (pin) => {
    const response = await call('PUT', `/api/users/${tokens.admin!.id}/pin`, 'admin', pin === undefined ? {} : { pin });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ pin: 'pinInvalid' });
  });

  it('stores the PIN hashed with argon2id, never as typed', async () => {
    const target = await makeUser('Admin');
    const response = await call('PUT', `/api/users/${target.id}/pin`, 'admin', { pin: '482913' });
    expect(response.statusCode).toBe(200);
    expect(response.json().hasPin).toBe(true);
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.pinHash).toMatch(/^\$argon2id\$/);
    expect(row?.pinHash).not.toContain('482913');
    const log = await activityFor(target.id);
    expect(log.some((entry) => entry.targetType === 'admin PIN' && !entry.description?.includes('482913'))).toBe(true);
  });

  it('only administrators have a PIN; Doctors cannot set one; another clinic gets 404', async () => {
    const staff = await makeUser('Staff');
    const forStaff = await call('PUT', `/api/users/${staff.id}/pin`, 'admin', { pin: '123456' });
    expect(forStaff.statusCode).toBe(400);
    expect((await call('PUT', `/api/users/${tokens.admin!.id}/pin`, 'doctor', { pin: '123456' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/users/${tokens.admin!.id}/pin`, 'admin2', { pin: '123456' })).statusCode).toBe(404);
  });

  it('validates the right PIN and refuses a wrong one', async () => {
    const me = await makeUser('Admin');
    const session = await signIn(t.app, me.email);
    await call('PUT', `/api/users/${me.id}/pin`, session, { pin: '246810' });
    expect((await call('POST', '/api/users/pin/validate', session, { pin: '246810' })).json()).toEqual({ isValid: true });
    expect((await call('POST', '/api/users/pin/validate', session, { pin: '000000' })).json()).toEqual({ isValid: false });
    const badFormat = await call('POST', '/api/users/pin/validate', session, { pin: '12' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().fields).toEqual({ pin: 'pinInvalid' });
  });

  it('after five wrong PINs in 15 minutes even the right one answers 429 with Retry-After', async () => {
    const me = await makeUser('Admin');
    const session = await signIn(t.app, me.email);
    await call('PUT', `/api/users/${me.id}/pin`, session, { pin: '135790' });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await call('POST', '/api/users/pin/validate', session, { pin: '999999' })).json().isValid).toBe(false);
    }
    const locked = await call('POST', '/api/users/pin/validate', session, { pin: '135790' });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another administrator is not affected by this one's failures.
    const other = await makeUser('Admin');
    const otherSession = await signIn(t.app, other.email);
    expect((await call('POST', '/api/users/pin/validate', otherSession, { pin: '999999' })).statusCode).toBe(200);
  });

  it('a parent user locked out after five wrong PINs is still locked out when acting for another of its clinics', async () => {
    const parent = tokens.parent!;
    await call('PUT', `/api/users/${parent.id}/pin`, 'parent', { pin: '864209' });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await call('POST', '/api/users/pin/validate', 'parent', { pin: '111111' })).json().isValid).toBe(false);
    }
    expect((await call('POST', '/api/users/pin/validate', 'parent', { pin: '864209' })).statusCode).toBe(429);
    // The ClinicId header switches the acting clinic, never the count: it is the user's.
    for (const clinicId of [lakeside, riverside]) {
      const elsewhere = await call('POST', '/api/users/pin/validate', 'parent', { pin: '864209' }, { ClinicId: clinicId });
      expect(elsewhere.statusCode).toBe(429);
    }
  });

  it('PIN validation is for administrators: Staff and Doctors get 403', async () => {
    expect((await call('POST', '/api/users/pin/validate', 'staff', { pin: '123456' })).statusCode).toBe(403);
    expect((await call('POST', '/api/users/pin/validate', 'doctor', { pin: '123456' })).statusCode).toBe(403);
  });
});
