import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { isMessageKey, renderServerMessage, type MessageParams } from '@pathwell/contracts/server-messages';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createPglite, openDatabase, type Database, type DatabaseHandle } from '../src/db/client';
import { instanceSettings, outboxMessages } from '../src/db/schema';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { openBody } from '../src/modules/outbox/outbox.service';
import { adminUrl, APP_LOGIN } from './global-setup';

export interface TestApp {
  app: FastifyInstance;
  /** The owner's connection: reads and tampering behind the app's back. */
  db: Database;
  /** The connection the app was given (on a PostgreSQL server, a login that owns nothing). */
  appDb: Database;
  config: Config;
  kind: DatabaseHandle['kind'];
  /** The app's database address on a PostgreSQL server (a second app opens its own connections to it). */
  appDatabaseUrl?: string;
  close: () => Promise<void>;
}

/** `handle` is the owner's connection (tests read and tamper through it); `appHandle` is what the app gets. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; appHandle: DatabaseHandle; drop: () => Promise<void> }> {
  const template = inject('templateDatabase');
  const databaseUrl = process.env.DATABASE_URL;
  if (template && databaseUrl) {
    const name = `pathwell_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const handle = await openDatabase({ kind: 'postgresql', url: adminUrl(databaseUrl, name) });
    const appUrl = new URL(adminUrl(databaseUrl, name));
    appUrl.username = APP_LOGIN;
    appUrl.password = '';
    const appHandle = await openDatabase({ kind: 'postgresql', url: appUrl.toString() });
    return {
      handle,
      appHandle,
      drop: async () => {
        await appHandle.close();
        const dropper = new pg.Client({ connectionString: adminUrl(databaseUrl) });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const snapshot = inject('pgliteSnapshot');
  if (!snapshot) throw new Error('global setup did not prepare a database');
  const pglite = await createPglite(undefined, { loadDataDir: new Blob([readFileSync(snapshot)]) });
  const handle = await openDatabase({ kind: 'pglite', dataDir: undefined, pglite });
  // PGlite has one connection and one user: the request transactions switch role on it (decision 0022).
  return { handle, appHandle: handle, drop: async () => {} };
}

/** A fresh database (seeded with the demo clinics) and an app on it, for one test file. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { routes?: (app: FastifyInstance) => Promise<void> } = {},
): Promise<TestApp> {
  const { handle, appHandle, drop } = await freshDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: TEST_SECRET_CONFIG.appSecret,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '/nonexistent',
    JOB_POLL_SECONDS: '0.5',
    JOB_RETRY_DELAY_SECONDS: '1',
    // Intake links going out on their own would change what other tests count; its tests turn it on.
    INTAKE_AUTO_SEND: 'false',
    ...env,
  });
  const app = await buildApp({
    config,
    database: appHandle,
    logger: process.env.TEST_LOG_LEVEL ? undefined : false,
    routes: options.routes,
  });
  await app.ready();
  requireMessageKeys(app);
  return {
    app,
    db: handle.db,
    appDb: appHandle.db,
    config,
    kind: handle.kind,
    appDatabaseUrl: appHandle.url,
    close: async () => {
      await app.close();
      await handle.close();
      await drop();
    },
  };
}

/**
 * Another app on the same database as `t`, with its own connections, job workers and LISTEN: a second
 * server process, as in a deployment with several. PostgreSQL only (PGlite is one process). Close it
 * before `t`.
 */
export async function createSecondApp(t: TestApp): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  if (t.kind !== 'postgresql' || !t.appDatabaseUrl) throw new Error('a second app needs a PostgreSQL server (DATABASE_URL)');
  const handle = await openDatabase({ kind: 'postgresql', url: t.appDatabaseUrl });
  const app = await buildApp({ config: t.config, database: handle, logger: false });
  await app.ready();
  requireMessageKeys(app);
  return {
    app,
    close: async () => {
      await app.close();
      await handle.close();
    },
  };
}

/**
 * Every error answer of every API test must name a message of the catalogue (issue #16 §3): staff see
 * it translated, so an answer with a bare English text fails the test that provoked it.
 */
function requireMessageKeys(app: FastifyInstance) {
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions) => {
    const response = await inject(options);
    const isJson = String(response.headers['content-type'] ?? '').includes('application/json');
    if (response.statusCode >= 400 && isJson && response.body) {
      const body = response.json<{ messageKey?: unknown; params?: Record<string, unknown> }>();
      if (typeof body.messageKey !== 'string' || !isMessageKey(body.messageKey)) {
        throw new Error(`error answer without a known messageKey: ${response.statusCode} ${response.body}`);
      }
      const template = renderServerMessage(body.messageKey, body.params as MessageParams | undefined, 'es');
      if (template.includes('{{')) throw new Error(`error answer missing a message parameter: ${response.body}`);
    }
    return response;
  };
  (app as unknown as { inject: unknown }).inject = (options?: InjectOptions) =>
    options === undefined ? inject(options as unknown as InjectOptions) : checked(options);
}

let ipCounter = 0;
/** Each sign-in from its own address, so per-IP throttling of one test never touches another. */
export const nextIp = () => `10.99.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export async function signIn(app: FastifyInstance, email: string, password = DEMO_PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { email, password },
    remoteAddress: nextIp(),
  });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
  const body = response.json<{ token: string; id: string }>();
  return { token: body.token, id: body.id, headers: { authorization: `Bearer ${body.token}` } };
}

export async function latestEmailTo(db: Database, recipient: string) {
  const [message] = await db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.recipient, recipient))
    .orderBy(desc(outboxMessages.createdAt))
    .limit(1);
  if (!message) throw new Error(`no email to ${recipient}`);
  return { ...message, body: openBody(TEST_SECRET_CONFIG, message) };
}

/** The test apps' APP_SECRET, to read outbox bodies (they are encrypted at rest). */
export const TEST_SECRET_CONFIG = { appSecret: 'test-secret-of-at-least-thirty-two-characters' };

/** Pulls `id` and `token` out of the first link of an email body. */
export function linkParams(body: string) {
  const url = new URL(/https?:\/\/\S+/.exec(body)![0]);
  return { path: url.pathname, id: url.searchParams.get('id')!, token: url.searchParams.get('token')! };
}

/** Reads until `read` answers something (work done by a background job), or fails after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Writes one instance setting straight to the table, as an admin saving it would. */
export async function setInstanceSetting(db: Database, instanceId: string, key: string, value: string) {
  await db
    .insert(instanceSettings)
    .values({ instanceId, configurationId: key, configurationValue: value })
    .onConflictDoUpdate({
      target: [instanceSettings.instanceId, instanceSettings.configurationId],
      set: { configurationValue: value },
    });
}

/** An Etc/GMT zone whose clock now shows `hour` o'clock, so a test's "today" does not depend on when it runs. */
export function zoneAtHour(hour: number): string {
  let offset = hour - new Date().getUTCHours();
  if (offset > 14) offset -= 24;
  if (offset < -12) offset += 24;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
