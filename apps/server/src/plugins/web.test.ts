import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFormPath, instrumentPath } from '@pathwell/contracts/patient-links';
import { isPatientPagePath, webPlugin } from './web';

const token = 'A'.repeat(20) + '_-' + 'b'.repeat(21);
let app: FastifyInstance;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'pathwell-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<html>staff app</html>');
  writeFileSync(path.join(webDist, 'patient.html'), '<html>patient page</html>');
  app = Fastify();
  await app.register(webPlugin, { webDist });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

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
});
