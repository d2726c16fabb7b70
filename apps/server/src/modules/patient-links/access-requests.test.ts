import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_REQUESTS_PER_LINK,
  LINK_VERIFY_MAX_FAILURES,
  type CreatedPatientLink,
  type StaffAccessRequest,
} from '@pathwell/contracts/patient-links';
import type { NotificationList } from '@pathwell/contracts/messaging';
import { accessRequests, activityLogs, instances, patientLinks, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens: Record<string, { headers: Record<string, string>; id: string }> = {};
let patientId: string;
let otherDoctorsPatient: string;
let lakesidePatient: string;

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['admin', 'doctor', 'staff', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const insert = async (instanceId: string, lastName: string, doctorId: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Ana', lastName, dateOfBirth: '1968-11-02', email: null, doctorId })
      .returning({ id: patients.id });
    return row!.id;
  };
  patientId = await insert(riverside, 'Quintero', doctor!.id);
  otherDoctorsPatient = await insert(riverside, 'Elsewhere', null);
  lakesidePatient = await insert(lakeside, 'Lake', null);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, as: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as]!.headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const open = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: nextIp() });

async function linkFor(patient: string, as = 'staff') {
  const response = await call('POST', '/api/patient-links', as, { patientId: patient, formCode: 11 });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedPatientLink>();
}
const request = {
  name: 'Ana Quintero',
  dateOfBirth: '11/03/1968',
  contact: '(512) 555-0147',
  message: 'My birth date may be wrong in your records.',
};

describe('request portal access', () => {
  it('stores what was typed, answers the same whatever it was, and tells staff through the bell', async () => {
    const link = await linkFor(patientId);
    const before = (await call('GET', '/api/notifications', 'staff')).json<NotificationList>();
    const sent = await open(`/api/patient-links/${link.token}/access-request`, request);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ received: true });

    const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.linkId, link.id));
    expect(row).toMatchObject({
      instanceId: riverside,
      patientId,
      name: 'Ana Quintero',
      dateOfBirth: '11/03/1968',
      handledAt: null,
    });
    const after = (await call('GET', '/api/notifications', 'staff')).json<NotificationList>();
    expect(after.unseen).toBe(before.unseen + 1);
    expect(after.data[0]).toMatchObject({ kind: 'accessRequest', patientId, patientLastName: 'Quintero' });
    const [log] = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, row!.id));
    expect(log).toMatchObject({ area: 'Patient Sign-In', action: 'Created', actorUserId: null });
  });

  it('is open while a link is locked by wrong answers, and limited per link', async () => {
    const link = await linkFor(patientId);
    for (let attempt = 0; attempt < LINK_VERIFY_MAX_FAILURES; attempt++) {
      await open(`/api/patient-links/${link.token}/verify`, { lastName: 'Wrong', dateOfBirth: '01/01/1970' });
    }
    const [locked] = await t.db.select().from(patientLinks).where(eq(patientLinks.id, link.id));
    expect(locked!.lockedUntil).not.toBeNull();
    for (let n = 0; n < ACCESS_REQUESTS_PER_LINK; n++) {
      expect((await open(`/api/patient-links/${link.token}/access-request`, request)).statusCode).toBe(200);
    }
    const tooMany = await open(`/api/patient-links/${link.token}/access-request`, request);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json()).toMatchObject({ messageKey: 'accessRequestsTooMany' });
  });

  it('refuses a revoked link (410), an unknown token (404) and bad input (400 with fields)', async () => {
    const link = await linkFor(patientId);
    await t.db.update(patientLinks).set({ revokedAt: new Date() }).where(eq(patientLinks.id, link.id));
    expect((await open(`/api/patient-links/${link.token}/access-request`, request)).statusCode).toBe(410);
    expect((await open(`/api/patient-links/${'x'.repeat(43)}/access-request`, request)).statusCode).toBe(404);
    const live = await linkFor(patientId);
    const bad = await open(`/api/patient-links/${live.token}/access-request`, {
      name: '',
      dateOfBirth: '13/45/1968',
      contact: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields).sort()).toEqual(['contact', 'dateOfBirth', 'name']);
  });

  it('shows staff the requests on the patient and lets them mark one handled, once', async () => {
    const link = await linkFor(patientId);
    await open(`/api/patient-links/${link.token}/access-request`, { ...request, message: 'Handled one' });
    const list = await call('GET', `/api/patients/${patientId}/access-requests`, 'staff');
    expect(list.statusCode, list.body).toBe(200);
    const mine = list.json<StaffAccessRequest[]>().find((item) => item.message === 'Handled one')!;
    expect(mine).toMatchObject({ contact: '(512) 555-0147', handledAt: null, handledByName: null });
    const handled = await call('POST', `/api/patients/${patientId}/access-requests/${mine.id}/handled`, 'staff');
    expect(handled.statusCode, handled.body).toBe(204);
    const again = await call('POST', `/api/patients/${patientId}/access-requests/${mine.id}/handled`, 'staff');
    expect(again.statusCode).toBe(404);
    const updated = (await call('GET', `/api/patients/${patientId}/access-requests`, 'staff'))
      .json<StaffAccessRequest[]>()
      .find((item) => item.id === mine.id)!;
    expect(updated.handledAt).not.toBeNull();
    expect(updated.handledByName).toBeTruthy();
  });

  it("keeps other clinics and other doctors' patients out (404)", async () => {
    const link = await linkFor(patientId);
    await open(`/api/patient-links/${link.token}/access-request`, request);
    const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.linkId, link.id));
    expect((await call('GET', `/api/patients/${patientId}/access-requests`, 'admin2')).statusCode).toBe(404);
    expect((await call('POST', `/api/patients/${patientId}/access-requests/${row!.id}/handled`, 'admin2')).statusCode).toBe(404);
    const lakesideLink = await linkFor(lakesidePatient, 'admin2');
    await open(`/api/patient-links/${lakesideLink.token}/access-request`, request);
    const [lakesideRow] = await t.db.select().from(accessRequests).where(eq(accessRequests.linkId, lakesideLink.id));
    expect(
      (await call('POST', `/api/patients/${patientId}/access-requests/${lakesideRow!.id}/handled`, 'staff')).statusCode,
    ).toBe(404);
    // A Doctor sees their own patients only (decision 0014).
    const otherLink = await linkFor(otherDoctorsPatient);
    await open(`/api/patient-links/${otherLink.token}/access-request`, request);
    expect((await call('GET', `/api/patients/${otherDoctorsPatient}/access-requests`, 'doctor')).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientId}/access-requests`, 'doctor')).statusCode).toBe(200);
    expect((await call('GET', `/api/patients/${patientId}/access-requests`, 'staff')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/access-requests` })).statusCode).toBe(401);
  });
});
