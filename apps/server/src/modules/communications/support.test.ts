import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SUPPORT_SCREENSHOT_MAX_BYTES,
  SUPPORT_SCREENSHOT_MAX_CHARS,
  type CommunicationPage,
} from '@pathwell/contracts/messaging';
import { instances, outboxAttachments, outboxMessages } from '../../db/schema';
import { withClinics, withSystemAccess } from '../../db/tenancy';
import { createTestApp, nextIp, signIn, type TestApp, waitFor } from '../../../test/test-app';
import { createMailer, openAttachment, openBody, queueMessage } from '../outbox/outbox.service';
import { deliverMessage } from '../outbox/message-delivery.service';
import type { MailAttachment } from '../outbox/providers';

/** Issue #11: the optional screenshot of a support request (decision 0037). */

const received: { to: string; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
      callback();
    });
  },
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** JPEG magic bytes, then not a JPEG: refused, because the decoded image decides (decision 0057). */
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);
/** A real 16 × 16 JPEG carrying EXIF with the camera and a GPS position. */
let JPEG: Buffer;
/** The screenshot as stored: the same picture encoded again, without metadata. */
let storedPng: Buffer;
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
/** PNG magic bytes followed by padding, `size` bytes in all. */
const pngOfSize = (size: number) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - PNG_SIGNATURE.length, 1)]);

/** A PNG of exactly `size` bytes that decodes: noise pixels, then a private ancillary chunk to make up the size. */
async function realPngOfSize(size: number): Promise<Buffer> {
  const side = 820;
  const noise = Buffer.alloc(side * side * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 2654435761) >>> 24;
  const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const padding = size - png.length - 12;
  if (padding < 0) throw new Error(`noise PNG is already ${png.length} bytes`);
  const body = Buffer.concat([Buffer.from('ptXt', 'latin1'), Buffer.alloc(padding, 0x20)]);
  const chunk = Buffer.alloc(12 + padding);
  chunk.writeUInt32BE(padding, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), 8 + padding);
  // Before IEND, the last 12 bytes.
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

type Who = 'staff' | 'doctor' | 'admin' | 'manager' | 'admin2';
let smtpUrl: string;
let t: TestApp;
let riverside: string;
let lakeside: string;
const tokens = {} as Record<Who, { headers: Record<string, string> }>;

const call = (app: TestApp, method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) =>
  app.app.inject({ method, url, headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const contact = (as: Who, payload: Record<string, unknown>) =>
  call(t, 'POST', '/api/support/contact', tokens[as].headers, payload);
const attachmentsOf = (messageId: string) =>
  t.db.select().from(outboxAttachments).where(eq(outboxAttachments.messageId, messageId));

beforeAll(async () => {
  JPEG = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PathwellTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
    })
    .toBuffer();
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`;
  // An email server but no SUPPORT_EMAIL: support requests stay stored in the outbox.
  t = await createTestApp({ SMTP_URL: smtpUrl });
  const clinics = await t.db.select({ id: instances.id, name: instances.name }).from(instances);
  riverside = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
  lakeside = clinics.find((clinic) => clinic.name.startsWith('Lakeside'))!.id;
  for (const [who, email] of [
    ['staff', 'staff@pathwell.demo'],
    ['doctor', 'doctor@pathwell.demo'],
    ['admin', 'admin@pathwell.demo'],
    ['manager', 'manager@pathwell.demo'],
    ['admin2', 'admin2@pathwell.demo'],
  ] as const) {
    tokens[who] = await signIn(t.app, email);
  }
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('a support request with a screenshot, without SUPPORT_EMAIL', () => {
  let messageId: string;
  let attachmentId: string;

  it('is stored with its screenshot encrypted at rest, and the body names the file', async () => {
    const response = await contact('staff', {
      subject: 'Chart is blank',
      message: 'The pain chart shows nothing.',
      screenshot: dataUrl('image/png', PNG),
      screenshotName: 'blank chart.png',
    });
    expect(response.statusCode, response.body).toBe(201);
    const queued = response.json<{ id: string; status: string }>();
    expect(queued.status).toBe('stored');
    messageId = queued.id;
    const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, messageId));
    expect(openBody(t.config, message!)).toContain('Screenshot: blank chart.png (1 KB, attached)');
    const files = await attachmentsOf(messageId);
    expect(files).toHaveLength(1);
    const [file] = files;
    attachmentId = file!.id;
    storedPng = openAttachment(t.config, file!);
    expect(file).toMatchObject({
      instanceId: riverside,
      fileName: 'blank chart.png',
      contentType: 'image/png',
      size: storedPng.length,
    });
    // What the database holds is not the picture: a copy of it shows nothing.
    expect(file!.content.includes(PNG_SIGNATURE)).toBe(false);
    expect(await sharp(storedPng).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
    // Bound to its row: moved to another message it does not decrypt.
    expect(() => openAttachment(t.config, { ...file!, messageId: attachmentId })).toThrow();
  });

  it('shows on the communication dashboard, and the System Manager and Admin can open it', async () => {
    const response = await call(t, 'POST', '/api/communications/filtered', tokens.manager.headers, {
      template: 'support-request',
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = response.json<CommunicationPage>().data.find((message) => message.id === messageId);
    expect(row).toMatchObject({
      status: 'stored',
      attachments: [{ id: attachmentId, fileName: 'blank chart.png', contentType: 'image/png', size: storedPng.length }],
    });
    for (const who of ['manager', 'admin'] as const) {
      const file = await call(t, 'GET', `/api/communications/${messageId}/attachments/${attachmentId}`, tokens[who].headers);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['cache-control']).toBe('private, no-store');
      expect(file.headers['content-disposition']).toBe(`inline; filename="blank chart.png"; filename*=UTF-8''blank%20chart.png`);
      expect(file.rawPayload.equals(storedPng)).toBe(true);
    }
  });

  it('a message without a screenshot lists no attachments', async () => {
    const response = await contact('doctor', { subject: 'Question', message: 'No picture this time.' });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect(await attachmentsOf(id)).toEqual([]);
    const list = await call(t, 'POST', '/api/communications/filtered', tokens.admin.headers, { template: 'support-request' });
    expect(list.json<CommunicationPage>().data.find((message) => message.id === id)?.attachments).toEqual([]);
  });

  it('is refused to a role without the communication dashboard (403)', async () => {
    for (const who of ['staff', 'doctor'] as const) {
      const file = await call(t, 'GET', `/api/communications/${messageId}/attachments/${attachmentId}`, tokens[who].headers);
      expect(file.statusCode).toBe(403);
    }
  });

  it("is not found for another clinic's Admin, and the database itself keeps it from that clinic", async () => {
    const file = await call(t, 'GET', `/api/communications/${messageId}/attachments/${attachmentId}`, tokens.admin2.headers);
    expect(file.statusCode).toBe(404);
    expect(file.json()).toMatchObject({ messageKey: 'fileNotFound' });
    const list = await call(t, 'POST', '/api/communications/filtered', tokens.admin2.headers, {});
    expect(list.json<CommunicationPage>().data.some((message) => message.id === messageId)).toBe(false);
    const countAs = (clinic: string) =>
      withClinics(t.db, [clinic], async (tx) => {
        const rows = await rowsOf<{ count: number }>(
          tx,
          sql`select count(*)::int as count from outbox_attachments where id = ${attachmentId}`,
        );
        return rows[0]!.count;
      });
    expect(await countAs(lakeside)).toBe(0);
    expect(await countAs(riverside)).toBe(1);
    // A file of another clinic cannot be hung on this clinic's message either (the same-clinic key).
    const crossed = await t.db
      .execute(
        sql`insert into outbox_attachments (instance_id, message_id, file_name, content_type, size, content)
            values (${lakeside}, ${messageId}, 'x.png', 'image/png', 1, '\\x00')`,
      )
      .then(
        () => null,
        (error: unknown) => error as { code?: string; cause?: { code?: string } },
      );
    expect(crossed?.code ?? crossed?.cause?.code).toBe('23503');
  });

  it('answers 404 for a wrong pair of ids and 400 for a malformed one', async () => {
    const wrongPair = await call(t, 'GET', `/api/communications/${attachmentId}/attachments/${messageId}`, tokens.admin.headers);
    expect(wrongPair.statusCode).toBe(404);
    const malformed = await call(t, 'GET', `/api/communications/${messageId}/attachments/not-an-id`, tokens.admin.headers);
    expect(malformed.statusCode).toBe(400);
  });
});

describe('screenshots that are refused with a field error', () => {
  const refused = async (payload: Record<string, unknown>, field: string) => {
    const before = await t.db.select({ count: sql<number>`count(*)::int` }).from(outboxAttachments);
    const response = await contact('staff', { subject: 'Bad file', message: 'See the picture.', ...payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({ screenshot: field });
    const after = await t.db.select({ count: sql<number>`count(*)::int` }).from(outboxAttachments);
    expect(after[0]!.count).toBe(before[0]!.count);
    return response.json<{ messageKey: string }>();
  };

  it('a type other than PNG, JPEG or WebP', async () => {
    await refused({ screenshot: dataUrl('image/gif', Buffer.from('GIF89a')) }, 'fileTypeInvalid');
    await refused({ screenshot: dataUrl('text/html', Buffer.from('<script>alert(1)</script>')) }, 'fileTypeInvalid');
    await refused({ screenshot: 'https://example.com/shot.png' }, 'fileTypeInvalid');
    await refused({ screenshot: 'data:image/png;base64,@@@' }, 'fileTypeInvalid');
  });

  it('bytes that are not the image the data URL claims (magic numbers)', async () => {
    const body = await refused(
      { screenshot: dataUrl('image/png', Buffer.from('this is plain text, not a picture')) },
      'fileTypeInvalid',
    );
    expect(body.messageKey).toBe('fileTypesAccepted');
    await refused({ screenshot: dataUrl('image/png', JPEG) }, 'fileTypeInvalid');
    // JPEG magic bytes are not enough: the bytes must decode as a JPEG.
    await refused({ screenshot: dataUrl('image/jpeg', FAKE_JPEG) }, 'fileTypeInvalid');
    await refused({ screenshot: dataUrl('image/webp', PNG) }, 'fileTypeInvalid');
  });

  it('more than 2 MB once decoded, or a data URL longer than such a file makes', async () => {
    const body = await refused({ screenshot: dataUrl('image/png', pngOfSize(SUPPORT_SCREENSHOT_MAX_BYTES + 1)) }, 'fileTooLarge');
    expect(body.messageKey).toBe('fileLargerThan');
    const tooLong = `data:image/png;base64,${'A'.repeat(SUPPORT_SCREENSHOT_MAX_CHARS)}`;
    await refused({ screenshot: tooLong }, 'fileTooLarge');
  });

  it('a body far past the limit is a 413, never a 500', async () => {
    const response = await contact('staff', {
      subject: 'Huge',
      message: 'Huge',
      screenshot: dataUrl('image/png', pngOfSize(4 * 1024 * 1024)),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ messageKey: 'requestTooLarge' });
  });

  it('a screenshot of exactly 2 MB is accepted', async () => {
    const response = await contact('staff', {
      subject: 'Big but fine',
      message: 'Exactly at the limit.',
      screenshot: dataUrl('image/png', await realPngOfSize(SUPPORT_SCREENSHOT_MAX_BYTES)),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [file] = await attachmentsOf(response.json<{ id: string }>().id);
    expect(file).toMatchObject({ fileName: 'screenshot.png', contentType: 'image/png' });
  });

  it('a file name without control characters or folders', async () => {
    const response = await contact('staff', {
      subject: 'Name',
      message: 'Odd name.',
      screenshot: dataUrl('image/jpeg', JPEG),
      screenshotName: '../..\\evil\r\nBcc: x@example.com.jpg',
    });
    expect(response.statusCode, response.body).toBe(201);
    const [file] = await attachmentsOf(response.json<{ id: string }>().id);
    expect(file).toMatchObject({ fileName: '....evilBcc: x@example.com.jpg', contentType: 'image/jpeg' });
  });

  it('is stored under the extension of the type it is, not the name it was sent with', async () => {
    for (const [screenshotName, fileName] of [
      ['notes.html', 'notes.png'],
      ['page.svg.html', 'page.svg.png'],
      ['no extension', 'no extension.png'],
      ['.html', 'screenshot.png'],
    ]) {
      const response = await contact('staff', {
        subject: 'Name',
        message: 'Odd name.',
        screenshot: dataUrl('image/png', PNG),
        screenshotName,
      });
      expect(response.statusCode, response.body).toBe(201);
      const [file] = await attachmentsOf(response.json<{ id: string }>().id);
      expect(file).toMatchObject({ fileName, contentType: 'image/png' });
    }
    const jpeg = await contact('staff', {
      subject: 'Name',
      message: 'Odd name.',
      screenshot: dataUrl('image/jpeg', JPEG),
      screenshotName: 'Photo.JPEG',
    });
    const [kept] = await attachmentsOf(jpeg.json<{ id: string }>().id);
    expect(kept!.fileName).toBe('Photo.JPEG');
  });

  it('keeps no EXIF or GPS position of a photo', async () => {
    expect(JPEG.includes(Buffer.from('PathwellTestCam'))).toBe(true);
    const response = await contact('staff', {
      subject: 'Photo',
      message: 'From my phone.',
      screenshot: dataUrl('image/jpeg', JPEG),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [file] = await attachmentsOf(response.json<{ id: string }>().id);
    const stored = openAttachment(t.config, file!);
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 16, height: 16 });
    expect(metadata.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('PathwellTestCam'))).toBe(false);
    expect(stored.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
  });
});

describe('with SUPPORT_EMAIL and SMTP', () => {
  let withSupport: TestApp;
  beforeAll(async () => {
    withSupport = await createTestApp({ SMTP_URL: smtpUrl, SUPPORT_EMAIL: 'help@pathwell.test' });
  });
  afterAll(async () => {
    await withSupport?.close();
  });

  it('the screenshot goes out as an attachment of the email, and the message is marked sent', async () => {
    const doctor = await signIn(withSupport.app, 'doctor@pathwell.demo');
    const response = await call(withSupport, 'POST', '/api/support/contact', doctor.headers, {
      subject: 'Sign button',
      message: 'The sign button stays grey.',
      screenshot: dataUrl('image/png', PNG),
      screenshotName: 'grey-button.png',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id, status } = response.json<{ id: string; status: string }>();
    expect(status).toBe('queued');
    const mail = await waitFor(async () => received.find((message) => message.to === 'help@pathwell.test'));
    expect(mail.raw).toContain('[Pathwell support] Sign button');
    expect(mail.raw).toContain('The sign button stays grey.');
    expect(mail.raw).toMatch(/Content-Type: image\/png; name="?grey-button\.png"?/);
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename="?grey-button\.png"?/);
    // The picture as stored (encoded again, the same bytes for the same upload), not the bytes sent.
    expect(mail.raw.replace(/\r?\n/g, '')).toContain(storedPng.toString('base64'));
    const row = await waitFor(async () => {
      const [message] = await withSupport.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
      return message?.status === 'sent' ? message : undefined;
    });
    expect(row.attempts).toBe(1);
  });

  it('the delivery job hands the decrypted files to the mailer', async () => {
    const [clinic] = await withSupport.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const deps = { config: withSupport.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: withSupport.app.jobs };
    // Stored, so that no job sends it first: the test hands it to its own mailer.
    const queued = await withSystemAccess(withSupport.appDb, 'outbox-delivery', (tx) =>
      queueMessage(deps, tx, {
        instanceId: clinic!.id,
        channel: 'email',
        storeOnly: true,
        to: 'files@example.test',
        subject: 'Files',
        body: 'Two files.',
        template: 'support-request',
        attachments: [
          { fileName: 'b.jpg', contentType: 'image/jpeg', content: JPEG },
          { fileName: 'a.png', contentType: 'image/png', content: PNG },
        ],
      }),
    );
    expect(queued.status).toBe('stored');
    const handed: { attachments?: MailAttachment[] }[] = [];
    const mailer = {
      configured: true,
      deliver: async (message: { attachments?: MailAttachment[] }) => {
        handed.push(message);
        return { providerMessageId: '<files@pathwell.test>' };
      },
    };
    await deliverMessage({ root: withSupport.appDb, config: withSupport.config, mailer }, queued.id, {
      retryCount: 0,
      retryLimit: 5,
    });
    expect(handed).toHaveLength(1);
    // Files written together go out by name.
    expect(handed[0]!.attachments?.map((file) => [file.filename, file.contentType, file.content.toString('base64')])).toEqual([
      ['a.png', 'image/png', PNG.toString('base64')],
      ['b.jpg', 'image/jpeg', JPEG.toString('base64')],
    ]);
  });
});
