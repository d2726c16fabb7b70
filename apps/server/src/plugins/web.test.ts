import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFormPath, instrumentPath } from '@pathwell/contracts/patient-links';
import { isPatientPagePath, webPlugin } from './web';

const token = 'A'.repeat(20) + '_-' + 'b'.repeat(21);
const script = `export const pages = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `page ${i}`))};`;
let app: FastifyInstance;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'pathwell-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<html>staff app</html>');
  writeFileSync(path.join(webDist, 'patient.html'), '<html>patient page</html>');
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'assets', 'main-abc.js'), script);
  writeFileSync(path.join(webDist, 'assets', 'main-abc.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(webDist, 'assets', 'main-abc.js.gz'), gzipSync(script));
  app = Fastify();
  await app.register(webPlugin, { webDist });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('compressed assets', () => {
  const asset = (encoding?: string) =>
    app.inject({ method: 'GET', url: '/assets/main-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends the brotli copy to a browser that takes brotli, cached for a year', async () => {
    const response = await asset('gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
    expect(response.rawPayload.length).toBeLessThan(script.length / 3);
  });

  it('sends gzip to a browser without brotli, and the plain file to one that takes neither', async () => {
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});

describe('web pages', () => {
  it('serves the patient page, never cached, for every questionnaire link path', async () => {
    const paths = [
      instrumentPath(11, token, '0b6f3c1e-2a4d-4b8e-9f00-1234567890ab'),
      instrumentPath(1, token),
      `${instrumentPath(8, token)}/`,
      `/patients/PHQ9/${token}/x?lang=es`,
      customFormPath(token),
    ];
    for (const url of paths) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe('<html>patient page</html>');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-type'], url).toContain('text/html');
    }
  });

  it('serves the staff app for other paths, including staff pages under /patients', async () => {
    for (const url of [
      '/patients/list',
      '/patients/patientdashboard/abc',
      '/patients/intake/a/b/c',
      '/customform/abc',
      `/patients/phq9/${token}/a/b`,
      '/',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe('<html>staff app</html>');
    }
  });

  it('keeps unknown API paths and other methods as JSON 404', async () => {
    expect((await get(`/api${customFormPath(token)}`)).statusCode).toBe(404);
    const post = await app.inject({ method: 'POST', url: customFormPath(token) });
    expect(post.statusCode).toBe(404);
  });

  it('matches exactly the section 2 questionnaire routes', () => {
    expect(isPatientPagePath('/patients/cesdr/tok')).toBe(true);
    expect(isPatientPagePath('/patients/promisglobal10/tok/appt')).toBe(true);
    expect(isPatientPagePath('/patients/unknownform/tok')).toBe(false);
    expect(isPatientPagePath('/customform/tok/reactiveight/appt')).toBe(false);
  });

  it('serves the intake pages from the patient bundle but keeps the staff appointment dashboard', () => {
    const token = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
    expect(isPatientPagePath(`/patients/intake/${token}/appt`)).toBe(true);
    expect(isPatientPagePath(`/patients/appointmentdashboard/${token}/appt/revisit`)).toBe(true);
    expect(isPatientPagePath('/patients/intakecomplete')).toBe(true);
    expect(isPatientPagePath('/checkincomplete')).toBe(true);
    expect(isPatientPagePath('/homecheckincomplete?x=1')).toBe(true);
    expect(isPatientPagePath('/thankyou')).toBe(true);
    expect(isPatientPagePath('/exit')).toBe(true);
    expect(isPatientPagePath('/exitpage')).toBe(false);
    expect(isPatientPagePath('/newpatientpaperwork/42')).toBe(true);
    expect(isPatientPagePath('/patients/p1/appointments/a1/customscreeners')).toBe(true);
    expect(isPatientPagePath('/patients/p1/payment/a1')).toBe(true);
    expect(isPatientPagePath('/patients/p1/appointments/a1/one-pager')).toBe(false);
    expect(
      isPatientPagePath(
        '/patients/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f/appointments/7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d/patient-checkin',
      ),
    ).toBe(true);
    expect(isPatientPagePath('/patients/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f/appointments')).toBe(false);
    expect(isPatientPagePath('/patients/appointmentdashboard')).toBe(false);
    expect(isPatientPagePath('/patients/basicintake')).toBe(false);
  });

  it('serves the close-account confirmation and the consent pages from the patient bundle', () => {
    const token = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
    expect(isPatientPagePath(`/patients/closeaccount/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f/${token}`)).toBe(true);
    expect(isPatientPagePath(`/patients/digitalconsentform/${token}`)).toBe(true);
    expect(isPatientPagePath(`/patients/resignconsent/${token}`)).toBe(true);
    expect(isPatientPagePath('/patients/closeaccount/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f')).toBe(false);
    expect(isPatientPagePath('/patients/resignconsent/short')).toBe(false);
  });

  it('serves the pain journal from the patient bundle, only with a patient id and a link token', () => {
    const token = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
    expect(isPatientPagePath(`/periodicvas/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f/${token}`)).toBe(true);
    expect(isPatientPagePath('/periodicvas/3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f/7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d')).toBe(
      false,
    );
  });
});
