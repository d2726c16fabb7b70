import { and, eq } from 'drizzle-orm';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, instanceFiles, instances } from '../../db/schema';
import { FAKE_JPEG, hasExif, phonePhoto } from '../../../test/phone-photo';
import { createTestApp, signIn, type TestApp } from '../../../test/test-app';
import { decryptFile } from '../../lib/settings-crypto';

let t: TestApp;
let riversideId: string;
type Headers = Record<string, string>;
const as: Record<'manager' | 'admin' | 'staff' | 'admin2', Headers> = {} as never;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ['manager', 'admin', 'staff', 'admin2'] as const)
    as[who] = (await signIn(t.app, `${who}@pathwell.demo`)).headers;
  const clinics = await t.db.select({ id: instances.id, name: instances.name }).from(instances);
  riversideId = clinics.find((clinic) => clinic.name.startsWith('Riverside'))!.id;
});
afterAll(async () => {
  await t?.close();
});

const PNG = await sharp({ create: { width: 12, height: 6, channels: 4, background: '#0c8599' } })
  .png()
  .toBuffer();
const JPEG = await sharp({ create: { width: 12, height: 6, channels: 3, background: '#0c8599' } })
  .jpeg()
  .toBuffer();
const pdf = (size = 2048) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size, 0x20)]);
const CLEAN_SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"/></defs><rect width="10" height="10" fill="url(#g)"/></svg>',
);

interface Part {
  name: string;
  value?: string;
  filename?: string;
  contentType?: string;
  content?: Buffer;
}

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Part[]) {
  const boundary = `----pathwell${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(part.content ?? Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(
  headers: Headers,
  url: string,
  file: { filename: string; contentType: string; content: Buffer },
  extra: Part[] = [],
) {
  const body = multipart([...extra, { name: 'file', ...file }]);
  return t.app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
}

const uploadLogo = (file: { filename: string; contentType: string; content: Buffer }, headers = as.manager) =>
  upload(headers, '/api/instancesettings/files/clinicLogoPrimary', file);

describe('logos', () => {
  it('a System Manager uploads a PNG logo; the session points at it and anyone can load it, cached with an ETag', async () => {
    const response = await uploadLogo({ filename: 'riverside.png', contentType: 'image/png', content: PNG });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ fileName: 'riverside.png', contentType: 'image/png' });
    const url: string = response.json().url;
    expect(url).toMatch(new RegExp(`^/api/instancesettings/logos/${riversideId}/clinicLogoPrimary\\?v=[0-9a-f]+$`));

    const session = (await t.app.inject({ method: 'GET', url: '/api/session', headers: as.staff })).json();
    expect(session.instance.logoUrl).toBe(url);
    const primary = await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.staff });
    expect(primary.json()).toEqual({ url });

    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.length).toBe(response.json().size);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = image.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);

    const unversioned = await t.app.inject({ method: 'GET', url: url.split('?')[0]! });
    expect(unversioned.headers['cache-control']).toBe('public, no-cache');
    const revalidated = await t.app.inject({ method: 'GET', url: url.split('?')[0]!, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it('a replaced logo gets a new URL, so a year-long cache never shows the old one', async () => {
    const first = (await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.staff })).json()
      .url;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await uploadLogo({ filename: 'riverside.jpg', contentType: 'image/jpeg', content: JPEG });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().url).not.toBe(first);
    const image = await t.app.inject({ method: 'GET', url: replaced.json().url });
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a file whose bytes are not an accepted image, whatever it claims to be (415)', async () => {
    const disguised = await uploadLogo({ filename: 'logo.png', contentType: 'image/png', content: pdf() });
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().fields).toEqual({ file: 'fileTypeInvalid' });
    const gif = await uploadLogo({ filename: 'logo.gif', contentType: 'image/gif', content: Buffer.from('GIF89a........') });
    expect(gif.statusCode).toBe(415);
    const mislabelled = await uploadLogo({ filename: 'logo.png', contentType: 'application/pdf', content: PNG });
    expect(mislabelled.statusCode).toBe(415);
  });

  it('keeps a JPEG logo without its EXIF and GPS position, named for what it is', async () => {
    const photo = await phonePhoto();
    expect(await hasExif(photo)).toBe(true);
    const response = await uploadLogo({ filename: 'brand.html', contentType: 'image/jpeg', content: photo });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ fileName: 'brand.jpg', contentType: 'image/jpeg' });
    const stored = (await t.app.inject({ method: 'GET', url: response.json().url })).rawPayload;
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 16, 8]);
    expect(await hasExif(stored)).toBe(false);
  });

  it('refuses a file that starts like a JPEG or PNG but is not one (400), and keeps the logo it had', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.staff })).json()
      .url;
    const fakePng = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), FAKE_JPEG]);
    for (const [contentType, content] of [
      ['image/jpeg', FAKE_JPEG],
      ['image/png', fakePng],
    ] as const) {
      const response = await uploadLogo({ filename: 'logo.png', contentType, content });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ file: 'fileTypeInvalid' });
    }
    const after = (await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.staff })).json()
      .url;
    expect(after).toBe(before);
  });

  it('refuses a logo above 2 MB with a field error', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const response = await upload(as.manager, '/api/instancesettings/files/practiceLogo', {
      filename: 'big.png',
      contentType: 'image/png',
      content: big,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ file: 'fileTooLarge' });
    const [row] = await t.db
      .select({ key: instanceFiles.fileKey })
      .from(instanceFiles)
      .where(and(eq(instanceFiles.instanceId, riversideId), eq(instanceFiles.fileKey, 'practiceLogo')));
    expect(row).toBeUndefined();
  });

  it.each([
    ['a script', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
    [
      'an encoded javascript link',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;avascript:alert(1)"><rect/></a></svg>',
    ],
    ['an external image', '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png"/></svg>'],
    ['an entity declaration', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['foreign HTML', '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>'],
  ])('refuses an SVG with %s', async (_what, svg) => {
    const response = await upload(as.manager, '/api/instancesettings/files/clinicLogoSecondary', {
      filename: 'logo.svg',
      contentType: 'image/svg+xml',
      content: Buffer.from(svg),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ file: 'fileUnsafe' });
  });

  it('keeps a clean SVG and serves it with a policy that forbids scripts', async () => {
    const response = await upload(as.manager, '/api/instancesettings/files/clinicLogoSecondary', {
      filename: 'mark.svg',
      contentType: 'image/svg+xml',
      content: CLEAN_SVG,
    });
    expect(response.statusCode).toBe(200);
    const image = await t.app.inject({ method: 'GET', url: response.json().url });
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(image.headers['content-security-policy']).toContain("default-src 'none'");
    expect(image.headers['content-security-policy']).toContain('sandbox');
  });

  it('deleting a logo removes it from the session and the public URL; deleting again is 404', async () => {
    const url = (await t.app.inject({ method: 'GET', url: '/api/instancesettings/primarylogourl', headers: as.staff })).json()
      .url;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/instancesettings/files/clinicLogoPrimary',
      headers: as.manager,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const session = (await t.app.inject({ method: 'GET', url: '/api/session', headers: as.staff })).json();
    expect(session.instance.logoUrl).toBeNull();
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/api/instancesettings/files/clinicLogoPrimary',
      headers: as.manager,
    });
    expect(again.statusCode).toBe(404);
  });

  it('an Admin or Staff user cannot upload (403)', async () => {
    expect((await uploadLogo({ filename: 'a.png', contentType: 'image/png', content: PNG }, as.admin)).statusCode).toBe(403);
    expect((await uploadLogo({ filename: 'a.png', contentType: 'image/png', content: PNG }, as.staff)).statusCode).toBe(403);
  });

  it('an unknown file slot is 404 and an upload without a file is 400', async () => {
    expect((await uploadLogo({ filename: 'a.png', contentType: 'image/png', content: PNG })).statusCode).toBe(200);
    const unknown = await upload(as.manager, '/api/instancesettings/files/heroBanner', {
      filename: 'a.png',
      contentType: 'image/png',
      content: PNG,
    });
    expect(unknown.statusCode).toBe(404);
    const body = multipart([{ name: 'note', value: 'no file here' }]);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/instancesettings/files/clinicLogoPrimary',
      headers: { ...as.manager, ...body.headers },
      payload: body.payload,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ file: 'fileRequired' });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/instancesettings/files/clinicLogoPrimary',
      headers: as.manager,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });
});

describe('new-patient agreements', () => {
  it('a 1.5 MB PDF uploads (above the JSON body limit) and is readable by signed-in users of the clinic only', async () => {
    const content = pdf(1.5 * 1024 * 1024);
    const response = await upload(
      as.manager,
      '/api/instancesettings/files/newPatientAgreementEs',
      { filename: 'upload.pdf', contentType: 'application/pdf', content },
      [{ name: 'fileName', value: 'Acuerdo del paciente.pdf' }],
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      fileName: 'Acuerdo del paciente.pdf',
      url: '/api/instancesettings/files/newPatientAgreementEs',
    });

    const read = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/files/newPatientAgreementEs',
      headers: as.staff,
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('application/pdf');
    expect(read.headers['cache-control']).toBe('private, no-cache');
    expect(read.headers['content-disposition']).toContain("filename*=UTF-8''Acuerdo%20del%20paciente.pdf");
    expect(read.rawPayload.length).toBe(content.length);

    expect((await t.app.inject({ method: 'GET', url: '/api/instancesettings/files/newPatientAgreementEs' })).statusCode).toBe(
      401,
    );
    const otherClinic = await t.app.inject({
      method: 'GET',
      url: `/api/instancesettings/files/newPatientAgreementEs?instance=${riversideId}`,
      headers: as.admin2,
    });
    expect(otherClinic.statusCode).toBe(404);
    const ownClinic = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/files/newPatientAgreementEs',
      headers: as.admin2,
    });
    expect(ownClinic.statusCode).toBe(404);
    // Agreements are not logos: the public route does not serve them.
    const publicTry = await t.app.inject({
      method: 'GET',
      url: `/api/instancesettings/logos/${riversideId}/newPatientAgreementEs`,
    });
    expect(publicTry.statusCode).toBe(404);
  });

  it('an agreement must be a PDF and at most 10 MB', async () => {
    const png = await upload(as.manager, '/api/instancesettings/files/newPatientAgreementEn', {
      filename: 'agreement.pdf',
      contentType: 'application/pdf',
      content: PNG,
    });
    expect(png.statusCode).toBe(415);
    const big = await upload(as.manager, '/api/instancesettings/files/newPatientAgreementEn', {
      filename: 'agreement.pdf',
      contentType: 'application/pdf',
      content: pdf(10 * 1024 * 1024),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().fields).toEqual({ file: 'fileTooLarge' });
  });

  it('uploads and deletions are in the activity log', async () => {
    await upload(as.manager, '/api/instancesettings/files/newPatientAgreementEn', {
      filename: 'agreement.pdf',
      contentType: 'application/pdf',
      content: pdf(),
    });
    await t.app.inject({ method: 'DELETE', url: '/api/instancesettings/files/newPatientAgreementEn', headers: as.manager });
    const entries = await t.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.instanceId, riversideId), eq(activityLogs.targetId, 'newPatientAgreementEn')));
    expect(entries.map((entry) => [entry.area, entry.action])).toEqual([
      ['Admin Configuration', 'Updated'],
      ['Admin Configuration', 'Deleted'],
    ]);
  });
});

describe('eClinicalWorks private key', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('is stored encrypted and never served back', async () => {
    const response = await upload(as.manager, '/api/instancesettings/privatekey', {
      filename: 'ecw-bulk.pem',
      contentType: 'application/x-pem-file',
      content: Buffer.from(pem),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ fileName: 'ecw-bulk.pem', url: null });
    expect(response.body).not.toContain('PRIVATE KEY');

    const [row] = await t.db
      .select()
      .from(instanceFiles)
      .where(and(eq(instanceFiles.instanceId, riversideId), eq(instanceFiles.fileKey, 'eClinicalWorksBulkPrivateKey')));
    expect(row!.content.toString('latin1')).not.toContain('PRIVATE KEY');
    expect(decryptFile(t.config.appSecret, riversideId, 'eClinicalWorksBulkPrivateKey', row!.content).toString()).toBe(pem);

    const served = await t.app.inject({
      method: 'GET',
      url: '/api/instancesettings/files/eClinicalWorksBulkPrivateKey',
      headers: as.manager,
    });
    expect(served.statusCode).toBe(404);
    const settings = (await t.app.inject({ method: 'GET', url: '/api/instancesettings', headers: as.manager })).json();
    expect(settings.files.eClinicalWorksBulkPrivateKey).toMatchObject({ fileName: 'ecw-bulk.pem', url: null });
    expect(JSON.stringify(settings)).not.toContain('PRIVATE KEY');
  });

  it('refuses a file that is not a private key, and Admins may not upload one', async () => {
    const notKey = await upload(as.manager, '/api/instancesettings/privatekey', {
      filename: 'key.pem',
      contentType: 'application/x-pem-file',
      content: Buffer.from('-----BEGIN PRIVATE KEY-----\nnot really\n-----END PRIVATE KEY-----\n'),
    });
    expect(notKey.statusCode).toBe(400);
    expect(notKey.json().fields).toEqual({ file: 'privateKeyInvalid' });
    const admin = await upload(as.admin, '/api/instancesettings/privatekey', {
      filename: 'key.pem',
      contentType: 'application/x-pem-file',
      content: Buffer.from(pem),
    });
    expect(admin.statusCode).toBe(403);
  });

  it('is deleted', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/instancesettings/privatekey', headers: as.manager })).statusCode,
    ).toBe(204);
    const settings = (await t.app.inject({ method: 'GET', url: '/api/instancesettings', headers: as.manager })).json();
    expect(settings.files.eClinicalWorksBulkPrivateKey).toBeNull();
  });
});
