import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('security baseline', () => {
  it('API answers carry security headers and are never cached', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an unexpected content type answers 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body over 1 MiB answers 413, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgetPassword',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
  });

  it('malformed JSON answers 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
  });

  it('an unknown API path answers a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND', messageKey: 'notFound' });
  });
});

describe('health and API documentation', () => {
  it('health reports the database kind and the migration level', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({
      status: 'ok',
      database: t.kind,
      migrations: { applied: expect.any(Number), latest: expect.stringMatching(/^\d{4}_/) },
    });
    expect(response.json().migrations.applied).toBeGreaterThan(0);
  });

  it('OpenAPI 3 lists every call of section 7 "Direct"', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/users',
      '/api/users/authenticate',
      '/api/users/{id}',
      '/api/users/forgetPassword',
      '/api/users/changepassword',
      '/api/users/setPassword',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});
