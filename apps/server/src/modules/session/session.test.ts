import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../../db/schema';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('session context and tenancy', () => {
  it('a staff user acts for their home clinic and gets its name, idle timeout and menu flags', async () => {
    const staff = await signIn(t.app, 'staff@pathwell.demo');
    const response = await get('/api/session', staff.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { email: 'staff@pathwell.demo', role: 'Staff' },
      instance: { id: riverside, name: 'Riverside Spine & Pain', timeZoneOffsetHours: -6 },
      allClinics: false,
      clinics: [],
      idleTimeoutMinutes: 30,
      flags: { campaignsEnabled: true, programMode: false },
      demoMode: true,
    });
  });

  it('a parent user switches clinic with the ClinicId header and lists both clinics sorted by name', async () => {
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const response = await get('/api/session', { ...parent.headers, clinicid: lakeside });
    expect(response.json().instance.name).toBe('Lakeside Pain Center');
    const clinics = await get('/api/parent/clinics', parent.headers);
    expect(clinics.json()).toEqual([
      { id: lakeside, name: 'Lakeside Pain Center' },
      { id: riverside, name: 'Riverside Spine & Pain' },
    ]);
  });

  it('a parent user naming a clinic they do not belong to gets 403', async () => {
    const [foreign] = await t.db.insert(instances).values({ name: 'Elsewhere Clinic' }).returning();
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const response = await get('/api/session', { ...parent.headers, clinicid: foreign!.id });
    expect(response.statusCode).toBe(403);
  });

  it('a non-parent user cannot act for another clinic, even one that exists', async () => {
    const admin = await signIn(t.app, 'admin@pathwell.demo');
    expect((await get('/api/session', { ...admin.headers, clinicid: lakeside })).statusCode).toBe(403);
    expect((await get('/api/session', { ...admin.headers, clinicid: riverside })).statusCode).toBe(200);
  });

  it('the all-clinics view is for parent users, on routes that allow it', async () => {
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const all = await get('/api/session', { ...parent.headers, clinicid: 'all' });
    expect(all.statusCode).toBe(200);
    expect(all.json().allClinics).toBe(true);
    expect((await get('/api/users/providers', { ...parent.headers, clinicid: 'all' })).statusCode).toBe(400);
    const admin = await signIn(t.app, 'admin@pathwell.demo');
    expect((await get('/api/session', { ...admin.headers, clinicid: 'all' })).statusCode).toBe(403);
  });

  it('a malformed ClinicId header is a 400 with a field error', async () => {
    const admin = await signIn(t.app, 'admin@pathwell.demo');
    const response = await get('/api/session', { ...admin.headers, clinicid: 'not-a-uuid' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ ClinicId: 'idInvalid' });
  });

  it('a System Manager may act for any clinic', async () => {
    const manager = await signIn(t.app, 'manager@pathwell.demo');
    const response = await get('/api/session', { ...manager.headers, clinicid: lakeside });
    expect(response.json().instance.id).toBe(lakeside);
    expect(response.json().clinics.length).toBeGreaterThanOrEqual(2);
  });

  it('keepalive answers 204 for a live session', async () => {
    const staff = await signIn(t.app, 'staff@pathwell.demo');
    expect((await t.app.inject({ method: 'POST', url: '/api/session/keepalive', headers: staff.headers })).statusCode).toBe(204);
  });
});

describe('doctor selector', () => {
  it("lists the acting clinic's doctors only", async () => {
    const admin = await signIn(t.app, 'admin@pathwell.demo');
    const riversideDoctors = await get('/api/users/providers', admin.headers);
    expect(riversideDoctors.json()).toEqual([{ id: expect.any(String), firstName: 'Daniela', lastName: 'Ortiz' }]);
    const other = await signIn(t.app, 'admin2@pathwell.demo');
    expect((await get('/api/users/providers', other.headers)).json()).toEqual([]);
  });
});

describe('outbox', () => {
  it('is readable by a System Manager in demo mode, newest first, and refused to other roles', async () => {
    await t.app.inject({ method: 'POST', url: '/api/users/forgetPassword', payload: { email: 'staff@pathwell.demo' } });
    const manager = await signIn(t.app, 'manager@pathwell.demo');
    const response = await get('/api/outbox', manager.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json().data[0]).toMatchObject({
      recipient: 'staff@pathwell.demo',
      template: 'reset-password',
      status: 'stored',
    });
    const admin = await signIn(t.app, 'admin@pathwell.demo');
    expect((await get('/api/outbox', admin.headers)).statusCode).toBe(403);
  });

  it('rejects a page size above 100', async () => {
    const manager = await signIn(t.app, 'manager@pathwell.demo');
    const response = await get('/api/outbox?pageSize=1000', manager.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('pageSize');
  });
});

describe('instances table', () => {
  it('keeps the seeded clinics', async () => {
    const rows = await t.db.select().from(instances).where(eq(instances.id, riverside));
    expect(rows).toHaveLength(1);
  });
});
