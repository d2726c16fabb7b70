import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
const failWith = (error: Error & { code?: string; cause?: unknown }) => {
  throw error;
};
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      routes: async (app: FastifyInstance) => {
        app.get('/api/test/db-restarting', { config: { public: true } }, async () =>
          failWith(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
        );
        app.get('/api/test/db-refused', { config: { public: true } }, async () =>
          failWith(
            new Error('Failed query: select 1', {
              cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
            }),
          ),
        );
        app.get('/api/test/bug', { config: { public: true } }, async () => failWith(new Error('a bug')));
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

describe('a database that is down or restarting', () => {
  it.each(['/api/test/db-restarting', '/api/test/db-refused'])(
    '%s answers 503 with Retry-After, so clients retry',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ code: 'UNAVAILABLE' });
    },
  );

  it('any other failure stays a 500 with a request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL' });
  });
});
