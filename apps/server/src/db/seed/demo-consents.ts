import { randomBytes } from 'node:crypto';
import { deflateSync, crc32 } from 'node:zlib';
import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { clinicDayStartAfter, clinicTodayStart } from '@pathwell/contracts/clinic-time';
import { sha256 } from '../../lib/secrets';
import { defaultAgreement, defaultShotConsent } from '../../modules/intake/intake-documents';
import type { Database } from '../client';
import { accessRequests, appointments, intakeFiles, notifications, patientConsents, patientLinks, patients } from '../schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DEMO_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function chunk(type: string, data: Buffer) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A made-up insurance card drawn as a PNG (a coloured band, a chip and grey "text" lines): the demo
 * shows where card photos appear without any real member's card.
 */
function demoCardPng(side: 'front' | 'back', width = 340, height = 214): Buffer {
  const band = side === 'front' ? [31, 95, 160] : [90, 90, 90];
  const rows: Buffer[] = [];
  const lines = side === 'front' ? [70, 95, 120, 150, 175] : [40, 60, 80, 100, 150, 170];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      let pixel = [246, 248, 251];
      if (side === 'front' && y < 44) pixel = band;
      if (side === 'back' && y > 16 && y < 34) pixel = band;
      if (side === 'front' && x > 20 && x < 64 && y > 60 && y < 92) pixel = [214, 178, 76];
      const line = lines.find((top) => y >= top && y < top + 8);
      const start = side === 'front' ? 80 : 20;
      if (line !== undefined && x >= start && x < start + 110 + ((line * 7) % 120)) pixel = [150, 156, 165];
      if (x < 2 || y < 2 || x >= width - 2 || y >= height - 2) pixel = [200, 205, 212];
      row.set(pixel, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Consents, card photos and an access request in a demo clinic (issue #12, decision 0036), so staff see
 * each of them working: today's first patient has a signed injection consent and photos of both sides
 * of the insurance card; the second has an agreement that expired last month (the Consents card offers
 * to ask again); the third could not pass the identity check and asked for access (bell and dashboard).
 */
export async function seedDemoConsents(tx: Database, options: { instanceId: string; timeZone: string; now?: Date }) {
  const now = options.now ?? new Date();
  const { instanceId } = options;
  const dayStart = clinicTodayStart(now, options.timeZone);
  const visits = await tx
    .select({ id: appointments.id, patientId: appointments.patientId })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        gte(appointments.startsAt, dayStart),
        lt(appointments.startsAt, clinicDayStartAfter(dayStart, 1, options.timeZone)),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(3);
  const [first, second, third] = visits;
  if (first) {
    const signedAt = new Date(now.getTime() - 2 * HOUR);
    const [link] = await tx
      .insert(patientLinks)
      .values({
        instanceId,
        patientId: first.patientId,
        appointmentId: first.id,
        kind: 'consent',
        consentKinds: ['shotConsent'],
        tokenHash: sha256(randomBytes(32).toString('base64url')),
        language: 'en',
        expiresAt: new Date(now.getTime() + 7 * DAY),
        completedAt: signedAt,
        createdAt: new Date(now.getTime() - 3 * HOUR),
      })
      .returning({ id: patientLinks.id });
    await tx.insert(patientConsents).values({
      instanceId,
      patientId: first.patientId,
      appointmentId: first.id,
      linkId: link!.id,
      kind: 'shotConsent',
      title: defaultShotConsent.title.en,
      documentText: defaultShotConsent.text.en,
      documentVersion: 'sha256:demo',
      language: 'en',
      signatureImage: DEMO_SIGNATURE,
      signedAt,
      expiresAt: new Date(signedAt.getTime() + 365 * DAY),
    });
    const [intake] = await tx
      .select({ id: patientLinks.id })
      .from(patientLinks)
      .where(and(eq(patientLinks.appointmentId, first.id), eq(patientLinks.kind, 'intake')))
      .limit(1);
    if (intake) {
      for (const side of ['front', 'back'] as const) {
        const content = demoCardPng(side);
        await tx.insert(intakeFiles).values({
          instanceId,
          patientId: first.patientId,
          linkId: intake.id,
          side: side === 'front' ? 'primaryFront' : 'primaryBack',
          contentType: 'image/png',
          size: content.length,
          content,
        });
      }
    }
  }
  if (second) {
    const signedAt = new Date(now.getTime() - 400 * DAY);
    await tx.insert(patientConsents).values({
      instanceId,
      patientId: second.patientId,
      kind: 'newPatientAgreement',
      title: defaultAgreement.title.en,
      documentText: defaultAgreement.text.en,
      documentVersion: 'sha256:demo-2024',
      language: 'en',
      signatureImage: DEMO_SIGNATURE,
      signedAt,
      expiresAt: new Date(signedAt.getTime() + 365 * DAY),
    });
  }
  if (third) {
    const [intake] = await tx
      .select({ id: patientLinks.id })
      .from(patientLinks)
      .where(and(eq(patientLinks.appointmentId, third.id), eq(patientLinks.kind, 'intake')))
      .limit(1);
    const [patient] = await tx
      .select({ firstName: patients.firstName, lastName: patients.lastName })
      .from(patients)
      .where(eq(patients.id, third.patientId));
    if (intake && patient) {
      const createdAt = new Date(now.getTime() - 40 * 60_000);
      await tx.insert(accessRequests).values({
        instanceId,
        patientId: third.patientId,
        appointmentId: third.id,
        linkId: intake.id,
        name: `${patient.firstName} ${patient.lastName}`,
        dateOfBirth: null,
        contact: '(512) 555-0163',
        message: 'My last name changed when I married. Please call me after 3 pm.',
        createdAt,
      });
      await tx
        .insert(notifications)
        .values({ instanceId, kind: 'accessRequest', patientId: third.patientId, appointmentId: null, createdAt });
    }
  }
}
