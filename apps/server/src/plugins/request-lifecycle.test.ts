import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, waitFor, type TestApp } from '../../test/test-app';
import { MAX_JSON_DEPTH, jsonNestsDeeperThan, nulFieldPath } from './input-checks';

/**
 * Issue #24 §0: no client can leave the server hanging. Requests are sent over real sockets and
 * dropped at chosen points (before the body, while the handler works, while the answer is written);
 * afterwards no session may be idle in a transaction and health must answer.
 */

let t: TestApp;
let port: number;
let token: string;
const afterClose: { outcome: string | null } = { outcome: null };

/** A small deterministic generator: the same "random" points on every run. */
function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      routes: async (app) => {
        // A handler that keeps working after its client left: its next statement must fail, not run
        // outside the transaction on a connection that has gone back to the pool.
        app.get('/api/test/after-close', { config: { public: true } }, async (request, reply) => {
          await new Promise((resolve) => reply.raw.once('close', resolve));
          await sleep(50);
          try {
            await request.ctx.db.execute(sql`select current_user`);
            afterClose.outcome = 'ran';
          } catch (error) {
            afterClose.outcome = error instanceof Error ? error.message : String(error);
          }
          return {};
        });
      },
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  token = (await signIn(t.app, 'admin@pathwell.demo')).token;
});

afterAll(async () => {
  await t?.close();
});

interface RawRequest {
  method: string;
  path: string;
  body?: string;
  signedIn?: boolean;
}

const headOf = (request: RawRequest, contentLength: number) =>
  [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...(request.signedIn ? [`Authorization: Bearer ${token}`] : []),
    ...(request.body !== undefined ? ['Content-Type: application/json', `Content-Length: ${contentLength}`] : []),
    'Connection: close',
    '',
    '',
  ].join('\r\n');

type DropPoint = 'before the body' | 'in the handler' | 'while the answer is written';

/** Sends the request and destroys the socket at `point`; resolves once the socket is gone. */
function sendAndDrop(request: RawRequest, point: DropPoint, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      const body = request.body ?? '';
      if (point === 'before the body') {
        socket.write(headOf(request, Buffer.byteLength(body) + 50) + body.slice(0, Math.floor(body.length / 2)));
        setTimeout(() => socket.destroy(), delayMs);
        return;
      }
      socket.write(headOf(request, Buffer.byteLength(body)) + body);
      if (point === 'in the handler') setTimeout(() => socket.destroy(), delayMs);
      else socket.once('data', () => socket.destroy());
    });
  });
}

async function idleInTransaction(): Promise<number> {
  if (t.kind !== 'postgresql') return 0;
  const result = (await t.db.execute(
    sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
  )) as unknown as { rows: { count: number }[] };
  return result.rows[0]!.count;
}

async function healthOverHttp(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) });
  return response.status;
}

describe('requests whose client goes away', () => {
  it('50 requests dropped at random points, signed in and anonymous, leave no session idle in a transaction and health answers', async () => {
    const random = seededRandom(24);
    const requests: RawRequest[] = [
      { method: 'POST', path: '/api/patients/exporttocsv', body: '{}', signedIn: true },
      { method: 'POST', path: '/api/patients/filtered', body: '{"pageNumber":0,"pageSize":15}', signedIn: true },
      { method: 'GET', path: '/api/session', signedIn: true },
      { method: 'POST', path: '/api/users/authenticate', body: '{"email":"nobody@pathwell.demo","password":"Wrong#2026"}' },
      { method: 'GET', path: '/api/termsandconditions' },
    ];
    const points: DropPoint[] = ['before the body', 'in the handler', 'while the answer is written'];
    const drops: Promise<void>[] = [];
    for (let index = 0; index < 50; index++) {
      const request = requests[Math.floor(random() * requests.length)]!;
      const point = points[Math.floor(random() * points.length)]!;
      drops.push(sendAndDrop(request, point, Math.floor(random() * 40)));
      // Some arrive together (more than the pool holds), some one by one.
      if (index % 7 === 0) await sleep(Math.floor(random() * 30));
    }
    await Promise.all(drops);

    await waitFor(async () => ((await idleInTransaction()) === 0 ? true : undefined), 10_000);
    expect(await healthOverHttp()).toBe(200);
    // The pool still serves a signed-in request end to end.
    const me = await fetch(`http://127.0.0.1:${port}/api/session`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(me.status).toBe(200);
  }, 60_000);

  it('a statement a handler sends after its client left fails instead of running outside the transaction', async () => {
    afterClose.outcome = null;
    await sendAndDrop({ method: 'GET', path: '/api/test/after-close' }, 'in the handler', 20);
    const outcome = await waitFor(async () => afterClose.outcome ?? undefined, 5000);
    expect(outcome).not.toBe('ran');
    expect(await idleInTransaction()).toBe(0);
    expect(await healthOverHttp()).toBe(200);
  });
});

describe('health', () => {
  it('answers 503 within its deadline when no connection is free, and 200 again once one is', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders: Promise<unknown>[] = [];
    if (t.kind === 'postgresql') {
      // Every connection of the app's pool taken by work that does not end.
      for (let index = 0; index < 10; index++) holders.push(t.appDb.transaction(() => held));
    } else {
      holders.push(t.appDb.transaction(() => held));
    }
    await sleep(200);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(await healthOverHttp()).toBe(200);
  });
});

describe('deeply nested and very large bodies', () => {
  const deepArrays = '['.repeat(100_000) + ']'.repeat(100_000);
  const deepObjects = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);

  it.each([
    ['100,000 nested arrays', deepArrays],
    ['100,000 nested objects', deepObjects],
  ])('%s sent to the sign-in route are refused with 400 and the server keeps answering', async (_label, body) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/users/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ messageKey: 'jsonTooDeep', params: { limit: MAX_JSON_DEPTH } });
    expect(await healthOverHttp()).toBe(200);
  });

  it('nesting up to the limit is read; brackets inside strings do not count', () => {
    expect(jsonNestsDeeperThan('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify({ note: '[[[[{{{{\\"'.repeat(100) }), 4)).toBe(false);
  });

  it('the NUL walk names the field in a value nested far below the JSON limit, keys included', () => {
    let deep: unknown = 'x\u0000';
    for (let depth = 0; depth < 200_000; depth++) deep = [deep];
    const path = nulFieldPath({ outer: deep });
    expect(path?.split('.').length).toBe(200_001);
    expect(nulFieldPath({ list: [{ ok: 'a' }, { ['k\u0000']: 1 }] })).toBe('list.1');
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, 'v']));
    expect(nulFieldPath(wide)).toBeNull();
  });
});
