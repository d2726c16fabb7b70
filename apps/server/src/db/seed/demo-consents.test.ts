import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientConsents } from '@pathwell/contracts/consent-links';
import type { StaffIntake } from '@pathwell/contracts/intake';
import type { NotificationList } from '@pathwell/contracts/messaging';
import type { StaffAccessRequest } from '@pathwell/contracts/patient-links';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';
import { accessRequests, instances, patientConsents } from '../schema';

/** What a newcomer sees of decision 0036 in the demo clinic, through the same API the screens use. */
let t: TestApp;
let staff: { headers: Record<string, string>; id: string };

beforeAll(async () => {
  t = await createTestApp();
  staff = await signIn(t.app, 'staff@pathwell.demo');
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: staff.headers, remoteAddress: nextIp() });

describe('demo consents, card photos and access request', () => {
  it('Riverside signs injection consents digitally; one patient signed today, one has an expired agreement', async () => {
    const [riverside] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const rows = await t.db.select().from(patientConsents).where(eq(patientConsents.instanceId, riverside!.id));
    const shot = rows.find((row) => row.kind === 'shotConsent')!;
    const panel = (await get(`/api/patients/${shot.patientId}/consents`)).json<PatientConsents>();
    expect(panel.shotConsentEnabled).toBe(true);
    expect(panel.latest).toContainEqual(expect.objectContaining({ kind: 'shotConsent', expired: false }));
    expect((await get(panel.latest.find((consent) => consent.kind === 'shotConsent')!.pdfUrl)).statusCode).toBe(200);

    const expired = rows.find((row) => row.kind === 'newPatientAgreement' && row.expiresAt!.getTime() < Date.now())!;
    const expiredPanel = (await get(`/api/patients/${expired.patientId}/consents`)).json<PatientConsents>();
    expect(expiredPanel.latest).toContainEqual(expect.objectContaining({ kind: 'newPatientAgreement', expired: true }));

    const intakes = (await get(`/api/patients/${shot.patientId}/intake`)).json<StaffIntake[]>();
    const cards = intakes.flatMap((intake) => intake.insuranceCards);
    expect(cards.map((card) => card.side).sort()).toEqual(['primaryBack', 'primaryFront']);
    const image = await get(cards[0]!.url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('one patient asked for access: it is in the bell and on the dashboard', async () => {
    const [request] = await t.db.select().from(accessRequests);
    const bell = (await get('/api/notifications')).json<NotificationList>();
    expect(bell.data).toContainEqual(expect.objectContaining({ kind: 'accessRequest', patientId: request!.patientId }));
    const listed = (await get(`/api/patients/${request!.patientId}/access-requests`)).json<StaffAccessRequest[]>();
    expect(listed).toEqual([expect.objectContaining({ contact: '(512) 555-0163', handledAt: null })]);
  });
});
