import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntake, IntakeView, StaffIntake } from '@pathwell/contracts/intake';
import { activityLogs, appointments, instances, intakeFiles, patients, users } from '../../db/schema';
import { createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
const tokens: Record<string, { headers: Record<string, string> }> = {};
const ids = {} as {
  riverside: string;
  lakeside: string;
  patient: string;
  visit: string;
  followUp: string;
  otherDoctorPatient: string;
  lakesidePatient: string;
  lakesideVisit: string;
};
const WHO = { lastName: 'Quintero', dateOfBirth: '03/09/1975' };
const LAKE_WHO = { lastName: 'Marsh', dateOfBirth: '03/09/1975' };

// Real pictures: the server decodes what it is sent and stores it encoded again (decision 0057). The JPEG is
// a phone photo of a card: sideways pixels with EXIF orientation 6, the camera and the GPS position.
let JPEG: Buffer;
let PNG: Buffer;
let WEBP: Buffer;
/** JPEG magic bytes, then not a JPEG. */
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\u0000 card front')]);
const card = (color: string) => sharp({ create: { width: 60, height: 38, channels: 3, background: color } });
const GIF = Buffer.from('GIF89a\u0001\u0000\u0001\u0000');
const MAX = 2 * 1024 * 1024;

beforeAll(async () => {
  JPEG = await card('#2a6f97')
    .jpeg()
    .withExif({
      IFD0: { Make: 'PathwellTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  PNG = await card('#f4a261').png().toBuffer();
  WEBP = await card('#2a9d8f').webp().toBuffer();
  t = await createTestApp();
  const clinics = await t.db.select().from(instances);
  ids.riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  ids.lakeside = clinics.find((row) => row.name === 'Lakeside Pain Center')!.id;
  for (const who of ['staff', 'doctor', 'admin2']) tokens[who] = await signIn(t.app, `${who}@pathwell.demo`);
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [otherDoctor] = await t.db
    .insert(users)
    .values({
      email: 'cards.doctor@example.test',
      firstName: 'Card',
      lastName: 'Doctor',
      passwordHash: 'x',
      role: 3,
      status: 'active',
    })
    .returning({ id: users.id });
  const patient = async (instanceId: string, lastName: string, doctorId: string | null) => {
    const [row] = await t.db
      .insert(patients)
      .values({ instanceId, firstName: 'Rosa', lastName, dateOfBirth: '1975-03-09', doctorId, preferredLanguage: 'en' })
      .returning({ id: patients.id });
    return row!.id;
  };
  const visit = async (instanceId: string, patientId: string, doctorId: string | null, hours: number) => {
    const [row] = await t.db
      .insert(appointments)
      .values({ instanceId, patientId, doctorId, reason: 'new_patient', startsAt: new Date(Date.now() + hours * 3_600_000) })
      .returning({ id: appointments.id });
    return row!.id;
  };
  ids.patient = await patient(ids.riverside, WHO.lastName, doctor!.id);
  ids.visit = await visit(ids.riverside, ids.patient, doctor!.id, 2);
  ids.followUp = await visit(ids.riverside, ids.patient, doctor!.id, 5);
  ids.otherDoctorPatient = await patient(ids.riverside, 'Stone', otherDoctor!.id);
  ids.lakesidePatient = await patient(ids.lakeside, LAKE_WHO.lastName, null);
  ids.lakesideVisit = await visit(ids.lakeside, ids.lakesidePatient, null, 2);
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof tokens;
const staffCall = (method: 'GET' | 'POST', url: string, as: Who, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...tokens[as]!.headers, ...headers }, payload, remoteAddress: nextIp() });
const patientCall = (
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  url: string,
  options: { access?: string; contentType?: string; payload?: Buffer | string | object | Readable } = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(options.access ? { authorization: `Bearer ${options.access}` } : {}),
      ...(options.contentType ? { 'content-type': options.contentType } : {}),
    },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    remoteAddress: nextIp(),
  });

async function intakeFor(as: Who, body: Record<string, unknown>) {
  const response = await staffCall('POST', '/api/patients/intake', as, body);
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<CreatedIntake>();
  return { ...created, token: new URL(created.url).pathname.split('/')[3]! };
}
async function verified(token: string, who = WHO) {
  const response = await patientCall('POST', `/api/patient-links/${token}/verify`, { payload: who });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}
const cardUrl = (token: string, side: string) => `/api/intake/${token}/insurance-card/${side}`;
const upload = (token: string, side: string, access: string | undefined, contentType: string, payload: Buffer | Readable) =>
  patientCall('PUT', cardUrl(token, side), { access, contentType, payload });
const fieldsOf = (response: { json: <T>() => T }) => response.json<{ fields?: Record<string, string> }>().fields;
async function viewOf(token: string, access: string) {
  const response = await patientCall('GET', `/api/intake/${token}`, { access });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<IntakeView>();
}

describe('the patient photographs the insurance card in the paperwork step', () => {
  let token: string;
  let access: string;
  let linkId: string;

  beforeAll(async () => {
    const created = await intakeFor('staff', { patientId: ids.patient, appointmentId: ids.visit, formCodes: [] });
    expect(created.steps).toContain(1);
    token = created.token;
    linkId = created.linkId;
    access = await verified(token);
  });

  it('uploads a side, shows it again, replaces it with a new photo and lists the sides in the intake', async () => {
    expect((await viewOf(token, access)).insuranceCards).toEqual([]);
    const first = await upload(token, 'primaryFront', access, 'image/jpeg', JPEG);
    expect(first.statusCode, first.body).toBe(200);
    const shown = await patientCall('GET', cardUrl(token, 'primaryFront'), { access });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(first.json()).toEqual({ side: 'primaryFront', contentType: 'image/jpeg', size: shown.rawPayload.length });
    // Stored without the EXIF (camera, GPS position), upright: the sideways 60 × 38 pixels are now 38 × 60.
    const stored = await sharp(shown.rawPayload).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 38, height: 60 });
    expect(stored.exif).toBeUndefined();
    expect(shown.rawPayload.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
    expect(shown.rawPayload.includes(Buffer.from('PathwellTestCam'))).toBe(false);
    const [row] = await t.db.select({ content: intakeFiles.content }).from(intakeFiles).where(eq(intakeFiles.linkId, linkId));
    expect(row!.content.includes(Buffer.from('PathwellTestCam'))).toBe(false);

    const replaced = await upload(token, 'primaryFront', access, 'image/png', PNG);
    const replacedImage = (await patientCall('GET', cardUrl(token, 'primaryFront'), { access })).rawPayload;
    expect(replaced.json()).toEqual({ side: 'primaryFront', contentType: 'image/png', size: replacedImage.length });
    expect(await sharp(replacedImage).metadata()).toMatchObject({ format: 'png', width: 60, height: 38 });
    expect(await t.db.select({ id: intakeFiles.id }).from(intakeFiles).where(eq(intakeFiles.linkId, linkId))).toHaveLength(1);

    expect((await upload(token, 'primaryBack', access, 'image/webp; charset=binary', WEBP)).statusCode).toBe(200);
    expect((await viewOf(token, access)).insuranceCards).toEqual(['primaryFront', 'primaryBack']);

    const logs = await t.db
      .select({ action: activityLogs.action, description: activityLogs.description })
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.patient), eq(activityLogs.area, 'Intake Information')));
    expect(logs.filter((log) => log.description?.includes('insurance card')).map((log) => log.action)).toEqual([
      'Created',
      'Updated',
      'Created',
    ]);
  });

  it('removes a side; removing it again changes nothing; a side with no photo answers 404', async () => {
    expect((await patientCall('DELETE', cardUrl(token, 'primaryBack'), { access })).statusCode).toBe(204);
    expect((await patientCall('DELETE', cardUrl(token, 'primaryBack'), { access })).statusCode).toBe(204);
    const missing = await patientCall('GET', cardUrl(token, 'primaryBack'), { access });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ messageKey: 'fileNotFound' });
    expect((await viewOf(token, access)).insuranceCards).toEqual(['primaryFront']);
  });

  it('refuses another type, bytes that are not the image the header names, an empty body and more than 2 MB, naming the file', async () => {
    const refusals: [string, Buffer | Readable, string][] = [
      ['image/gif', GIF, 'fileTypeInvalid'],
      ['image/jpeg', Buffer.from('this is not a photo'), 'fileTypeInvalid'],
      // The first bytes of a JPEG, then something else: the decoded image decides, not the magic number.
      ['image/jpeg', FAKE_JPEG, 'fileTypeInvalid'],
      ['image/jpeg', PNG, 'fileTypeInvalid'],
      ['image/png', Buffer.concat([Buffer.from('<svg'), PNG]), 'fileTypeInvalid'],
      ['application/json', Buffer.from('{"image":"x"}'), 'fileTypeInvalid'],
      ['text/plain', JPEG, 'fileTypeInvalid'],
      ['image/jpeg', Buffer.alloc(0), 'fileRequired'],
      ['image/jpeg', Buffer.concat([JPEG, Buffer.alloc(MAX)]), 'fileTooLarge'],
      // No Content-Length: the size is counted while reading.
      ['image/jpeg', Readable.from([JPEG, Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2)]), 'fileTooLarge'],
    ];
    for (const [contentType, payload, field] of refusals) {
      const response = await upload(token, 'secondaryFront', access, contentType, payload);
      expect(response.statusCode, `${contentType} ${field}: ${response.body}`).toBe(400);
      expect(fieldsOf(response)).toEqual({ file: field });
    }
    const noBody = await patientCall('PUT', cardUrl(token, 'secondaryFront'), { access });
    expect(noBody.statusCode).toBe(400);
    expect(fieldsOf(noBody)).toEqual({ file: 'fileRequired' });
    // Exactly the limit is fine.
    const atLimit = await upload(
      token,
      'secondaryFront',
      access,
      'image/jpeg',
      Buffer.concat([JPEG, Buffer.alloc(MAX - JPEG.length)]),
    );
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect((await patientCall('DELETE', cardUrl(token, 'secondaryFront'), { access })).statusCode).toBe(204);
    const badSide = await upload(token, 'tertiaryFront', access, 'image/jpeg', JPEG);
    expect(badSide.statusCode).toBe(400);
    expect(fieldsOf(badSide)).toHaveProperty('side');
  });

  it('needs the identity check, and answers 404 for a form link, an unknown token or an intake without paperwork', async () => {
    expect((await upload(token, 'primaryBack', undefined, 'image/jpeg', JPEG)).statusCode).toBe(401);
    expect((await patientCall('GET', cardUrl(token, 'primaryFront'))).statusCode).toBe(401);
    expect((await patientCall('DELETE', cardUrl(token, 'primaryFront'))).statusCode).toBe(401);

    const form = await staffCall('POST', '/api/patient-links', 'staff', { patientId: ids.patient, formCode: 10 });
    const formToken = form.json<{ token: string }>().token;
    const formAccess = await verified(formToken);
    expect((await upload(formToken, 'primaryFront', formAccess, 'image/jpeg', JPEG)).statusCode).toBe(404);
    expect((await patientCall('GET', cardUrl(formToken, 'primaryFront'), { access: formAccess })).statusCode).toBe(404);
    // Another link's access token is not this link's.
    expect((await upload(token, 'primaryBack', formAccess, 'image/jpeg', JPEG)).statusCode).toBe(401);
    expect((await patientCall('GET', cardUrl(token, 'primaryFront'), { access: formAccess })).statusCode).toBe(401);
    expect((await upload('x'.repeat(43), 'primaryFront', access, 'image/jpeg', JPEG)).statusCode).toBe(404);

    const noPaperwork = await intakeFor('staff', { patientId: ids.patient, appointmentId: ids.followUp, steps: [2, 4] });
    const noPaperworkAccess = await verified(noPaperwork.token);
    expect((await upload(noPaperwork.token, 'primaryFront', noPaperworkAccess, 'image/jpeg', JPEG)).statusCode).toBe(404);
    expect((await viewOf(noPaperwork.token, noPaperworkAccess)).insuranceCards).toEqual([]);
  });

  it("another clinic's link reaches only its own photos, and its access token opens nothing here", async () => {
    const lake = await intakeFor('admin2', { patientId: ids.lakesidePatient, appointmentId: ids.lakesideVisit, formCodes: [] });
    const lakeAccess = await verified(lake.token, LAKE_WHO);
    expect((await upload(lake.token, 'primaryFront', lakeAccess, 'image/png', PNG)).statusCode).toBe(200);
    const lakeImage = (await patientCall('GET', cardUrl(lake.token, 'primaryFront'), { access: lakeAccess })).rawPayload;
    expect(await sharp(lakeImage).metadata()).toMatchObject({ format: 'png', width: 60, height: 38 });
    expect((await patientCall('GET', cardUrl(token, 'primaryFront'), { access: lakeAccess })).statusCode).toBe(401);
    expect((await patientCall('DELETE', cardUrl(token, 'primaryFront'), { access: lakeAccess })).statusCode).toBe(401);
    const [lakeFile] = await t.db.select().from(intakeFiles).where(eq(intakeFiles.linkId, lake.linkId));
    expect(lakeFile).toMatchObject({ instanceId: ids.lakeside, patientId: ids.lakesidePatient, side: 'primaryFront' });
    // Riverside staff cannot open it, by the Lakeside patient or by one of their own.
    expect(
      (await staffCall('GET', `/api/patients/${ids.lakesidePatient}/insurance-cards/${lakeFile!.id}`, 'staff')).statusCode,
    ).toBe(404);
    expect((await staffCall('GET', `/api/patients/${ids.patient}/insurance-cards/${lakeFile!.id}`, 'staff')).statusCode).toBe(
      404,
    );
    expect(
      (await staffCall('GET', `/api/patients/${ids.lakesidePatient}/insurance-cards/${lakeFile!.id}`, 'admin2')).statusCode,
    ).toBe(200);
  });

  it('staff see the photos on the patient intake and open them; other clinics, other doctors and other sessions do not', async () => {
    const response = await staffCall('GET', `/api/patients/${ids.patient}/intake`, 'doctor');
    expect(response.statusCode, response.body).toBe(200);
    const intake = response.json<StaffIntake[]>().find((entry) => entry.linkId === linkId)!;
    expect(intake.insuranceCards).toEqual([
      {
        id: expect.any(String),
        side: 'primaryFront',
        createdAt: expect.any(String),
        url: expect.stringMatching(new RegExp(`^/api/patients/${ids.patient}/insurance-cards/[0-9a-f-]{36}$`)),
      },
    ]);
    const url = intake.insuranceCards[0]!.url;
    const image = await staffCall('GET', url, 'doctor');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'png', width: 60, height: 38 });
    const viewed = await t.db
      .select({ description: activityLogs.description })
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, ids.patient), eq(activityLogs.action, 'Viewed')));
    expect(viewed.some((log) => log.description?.includes('primary insurance card (front)'))).toBe(true);

    expect((await staffCall('GET', url, 'admin2')).statusCode).toBe(404);
    const fileId = url.split('/').pop()!;
    expect(
      (await staffCall('GET', `/api/patients/${ids.otherDoctorPatient}/insurance-cards/${fileId}`, 'doctor')).statusCode,
    ).toBe(404);
    expect(
      (await staffCall('GET', `/api/patients/${ids.patient}/insurance-cards/${crypto.randomUUID()}`, 'staff')).statusCode,
    ).toBe(404);
    expect((await patientCall('GET', url)).statusCode).toBe(401);
    // Every staff role may open a photo (as a consent PDF); what is refused is acting outside one's clinic.
    expect((await staffCall('GET', url, 'staff', undefined, { clinicid: ids.lakeside })).statusCode).toBe(403);
    expect((await staffCall('GET', url, 'staff', undefined, { clinicid: 'all' })).statusCode).toBe(403);
    const badId = await staffCall('GET', `/api/patients/${ids.patient}/insurance-cards/nope`, 'staff');
    expect(badId.statusCode).toBe(400);
    expect(fieldsOf(badId)).toHaveProperty('fileId');
  });

  it('once the paperwork is finished the photos read again but no longer change', async () => {
    const paperwork = {
      streetAddress1: '4 Oak Ln',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      phones: [{ type: 'MOBILE', number: '(512) 555-0171' }],
      contacts: [{ role: 'emergency', name: 'Luis Quintero', phone: '(512) 555-0172' }],
      primaryInsurance: { payer: 'Blue Cross', memberId: 'XJ999' },
      agreementSignature: {
        image: `data:image/png;base64,${PNG.toString('base64')}`,
        signedAt: new Date().toISOString(),
      },
    };
    const saved = await patientCall('PUT', `/api/intake/${token}/paperwork`, {
      access,
      payload: { final: true, language: 'en', data: paperwork },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const late = await upload(token, 'primaryBack', access, 'image/jpeg', JPEG);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ messageKey: 'intakeStepFinished' });
    expect((await patientCall('DELETE', cardUrl(token, 'primaryFront'), { access })).statusCode).toBe(409);
    expect((await patientCall('GET', cardUrl(token, 'primaryFront'), { access })).statusCode).toBe(200);
  });

  it('a closed link takes no photo', async () => {
    const created = await intakeFor('staff', { patientId: ids.patient, appointmentId: ids.followUp, steps: [1, 2] });
    const closedAccess = await verified(created.token);
    expect((await staffCall('POST', '/api/patients/intakeenddate', 'staff', { linkId: created.linkId })).statusCode).toBe(204);
    expect((await upload(created.token, 'primaryFront', closedAccess, 'image/jpeg', JPEG)).statusCode).toBe(410);
    expect((await patientCall('GET', cardUrl(created.token, 'primaryFront'), { access: closedAccess })).statusCode).toBe(410);
  });
});
