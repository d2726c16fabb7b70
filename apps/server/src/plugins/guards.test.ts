import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      routes: async (app: FastifyInstance) => {
        app.get('/api/test/instance-settings', { config: { menuPath: '/admin/instancesettings' } }, async () => ({ ok: true }));
        app.get('/api/test/reports', { config: { menuPath: '/reports/summary' } }, async () => ({ ok: true }));
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

describe('routes guarded by the menu access table', () => {
  it.each([
    ['manager@pathwell.demo', '/api/test/instance-settings', 200],
    ['admin@pathwell.demo', '/api/test/instance-settings', 403],
    ['staff@pathwell.demo', '/api/test/instance-settings', 403],
    ['doctor@pathwell.demo', '/api/test/reports', 200],
    ['admin@pathwell.demo', '/api/test/reports', 200],
    ['staff@pathwell.demo', '/api/test/reports', 403],
  ])('%s calling %s answers %i', async (email, url, status) => {
    const user = await signIn(t.app, email);
    const response = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(response.statusCode).toBe(status);
  });
});

describe('open account routes', () => {
  it('are rate limited per address: the eleventh reset request in a minute answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/forgetPassword',
        payload: { email: 'nobody@example.com' },
        remoteAddress: '10.201.0.9',
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('route access inventory', () => {
  it('every API operation declares who may call it; the list is reviewed here', () => {
    const lines = t.app.routeAccess
      .filter((route) => !route.url.startsWith('/api/test/'))
      .map((route) => `${route.method} ${route.url} → ${Array.isArray(route.access) ? route.access.join(',') : route.access}`)
      .sort();
    expect(lines.length).toBeGreaterThan(150);
    expect(lines).toMatchSnapshot();
  });

  it('open routes are only the sign-in, account-recovery, patient-link, intake, consent-link, pain-journal, close-account, logo, legal text, lookup, health, self check-in and signed Twilio callback routes', () => {
    const open = t.app.routeAccess.filter((route) => route.access === 'open').map((route) => route.url);
    for (const url of open) {
      expect(url).toMatch(
        /^\/api\/(users(\/(authenticate|confirmSignup|twofactor\/(verify|send)|forgetPassword|setPassword|resendWelcomeEmail))?|patient-links\/:token\/[\w-]+|intake\/:token(\/(agreement|paperwork|history|vas|bodymap|payment|contact|checkin|close-account|insurance-card\/:side|forms\/:key(\/(draft|submit))?))?|selfcheckin\/:patientId\/:appointmentId|patients\/closeaccount\/:patientId\/:token|consent-links\/:token(\/(sign|agreement))?|pain-journal\/:token|patients\/closeaccountconfirmation|instancesettings\/logos\/:instanceId\/:fileKey|public\/legal\/:page|enums|timezones|health|sms\/twilio\/:instanceId\/(status|inbound))$/,
      );
    }
  });

  it.each<[string, FastifyContextConfig, RegExp]>([
    ['declares nothing', {}, /must declare exactly one/],
    ['declares two answers', { public: true, roles: ['Admin'] }, /must declare exactly one/],
    ['names a menu path the menu does not have', { menuPath: '/no/such/page' }, /No menu item has the path/],
  ])('start-up fails when a route %s', async (_name, config, message) => {
    await expect(
      createTestApp({}, { routes: async (app) => void app.get('/api/test/undeclared', { config }, async () => ({})) }),
    ).rejects.toThrow(message);
  });
});
