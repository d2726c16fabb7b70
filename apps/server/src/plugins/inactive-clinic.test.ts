import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../test/test-app';

let t: TestApp;
let lakeside: string;
beforeAll(async () => {
  t = await createTestApp();
  lakeside = (await t.db.select().from(instances).where(eq(instances.name, 'Lakeside Pain Center')))[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('a switched-off clinic', () => {
  it("ends its users' sessions, refuses their sign-in, and drops out of a parent user's clinics", async () => {
    const admin2 = await signIn(t.app, 'admin2@pathwell.demo');
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    await t.db.update(instances).set({ isActive: false }).where(eq(instances.id, lakeside));

    expect((await t.app.inject({ method: 'GET', url: '/api/session', headers: admin2.headers })).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      payload: { email: 'admin2@pathwell.demo', password: 'Pathwell#2026' },
      remoteAddress: nextIp(),
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toMatch(/no longer active/);

    const clinics = await t.app.inject({ method: 'GET', url: '/api/parent/clinics', headers: parent.headers });
    expect(clinics.json().map((clinic: { name: string }) => clinic.name)).toEqual(['Riverside Spine & Pain']);
    const acting = await t.app.inject({ method: 'GET', url: '/api/session', headers: { ...parent.headers, clinicid: lakeside } });
    expect(acting.statusCode).toBe(403);

    await t.db.update(instances).set({ isActive: true }).where(eq(instances.id, lakeside));
    expect((await signIn(t.app, 'admin2@pathwell.demo')).token).toBeTruthy();
  });
});

describe('renaming the clinic in the instance settings', () => {
  it('renames the instance too, so the clinic selector and the page title agree', async () => {
    const manager = await signIn(t.app, 'manager@pathwell.demo');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/instancesettings',
      headers: { ...manager.headers, clinicid: lakeside },
      payload: { clinicName: 'Lakeside Pain & Spine' },
    });
    expect(saved.statusCode).toBe(200);
    const [row] = await t.db.select().from(instances).where(eq(instances.id, lakeside));
    expect(row!.name).toBe('Lakeside Pain & Spine');
    const parent = await signIn(t.app, 'parent@pathwell.demo');
    const clinics = await t.app.inject({ method: 'GET', url: '/api/parent/clinics', headers: parent.headers });
    expect(clinics.json().map((clinic: { name: string }) => clinic.name)).toContain('Lakeside Pain & Spine');
  });
});
