import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clinicClock } from '@pathwell/contracts/clinic-time';
import type { CommunicationPage } from '@pathwell/contracts/messaging';
import { activityLogs, instances, outboxMessages, patientPhoneNumbers, patients, smsOptOuts } from '../../db/schema';
import { withSystemAccess } from '../../db/tenancy';
import { encryptSetting } from '../../lib/settings-crypto';
import { createTestApp, nextIp, signIn, type TestApp, waitFor, setInstanceSetting, zoneAtHour } from '../../../test/test-app';
import { createMailer, nextDaytime, queueMessage, type MessageInput } from './outbox.service';

/**
 * A stand-in for api.twilio.com that holds every request to Twilio's documented Messages API
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with AccountSid:AuthToken,
 * a form-encoded body with To, From, Body and StatusCallback. It answers 201 with the new Message
 * resource, except 500 for the first two requests to FLAKY_NUMBER.
 */
interface SeenRequest {
  accountSid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string;
  answered: number;
  sid: string | null;
}
const SERVER_ACCOUNT = { sid: `AC${'1'.repeat(32)}`, token: 'server-auth-token-0123456789abcdef' };
const CLINIC_ACCOUNT = { sid: `AC${'2'.repeat(32)}`, token: 'clinic-auth-token-fedcba9876543210' };
const accounts = new Map([
  [SERVER_ACCOUNT.sid, SERVER_ACCOUNT.token],
  [CLINIC_ACCOUNT.sid, CLINIC_ACCOUNT.token],
]);
const FROM_NUMBER = '+15125550100';
const FLAKY_NUMBER = '+15125550177';

const seen: SeenRequest[] = [];
/** Requests that broke the documented contract: every test expects none. */
const problems: string[] = [];
let sidCounter = 0;
const flakyFailures = new Map<string, number>();

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

const fakeTwilio: Server = createServer(async (request, response) => {
  const answer = (status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const refuse = (status: number, problem: string) => {
    problems.push(`${request.method} ${request.url}: ${problem}`);
    answer(status, { code: 20001, message: problem, more_info: 'https://www.twilio.com/docs/errors/20001', status });
  };
  const raw = await readBody(request);
  const path = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(request.url ?? '');
  if (request.method !== 'POST' || !path) return refuse(404, 'not the Messages create endpoint');
  const accountSid = path[1]!;
  const authorization = request.headers.authorization ?? '';
  const [user, password] = Buffer.from(authorization.replace(/^Basic /, ''), 'base64')
    .toString('utf8')
    .split(':');
  if (
    !authorization.startsWith('Basic ') ||
    user !== accountSid ||
    !accounts.has(accountSid) ||
    accounts.get(accountSid) !== password
  ) {
    return refuse(401, 'HTTP Basic auth must be AccountSid:AuthToken of the account in the path');
  }
  if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
    return refuse(415, 'body must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(raw);
  const fields = {
    to: form.get('To') ?? '',
    from: form.get('From') ?? '',
    body: form.get('Body') ?? '',
    statusCallback: form.get('StatusCallback') ?? '',
  };
  for (const [name, value] of Object.entries({
    To: fields.to,
    From: fields.from,
    Body: fields.body,
    StatusCallback: fields.statusCallback,
  })) {
    if (!value) return refuse(400, `missing ${name}`);
  }
  if (!/^\+[1-9]\d{7,14}$/.test(fields.to) || !/^\+[1-9]\d{7,14}$/.test(fields.from))
    return refuse(400, 'To and From must be E.164');
  const entry: SeenRequest = { accountSid, ...fields, answered: 0, sid: null };
  seen.push(entry);
  if (fields.to === FLAKY_NUMBER && (flakyFailures.get(FLAKY_NUMBER) ?? 0) < 2) {
    flakyFailures.set(FLAKY_NUMBER, (flakyFailures.get(FLAKY_NUMBER) ?? 0) + 1);
    entry.answered = 500;
    return answer(500, {
      code: 20500,
      message: 'Internal Server Error',
      more_info: 'https://www.twilio.com/docs/errors/20500',
      status: 500,
    });
  }
  const sid = `SM${(++sidCounter).toString(16).padStart(32, '0')}`;
  entry.answered = 201;
  entry.sid = sid;
  const now = new Date().toUTCString();
  answer(201, {
    account_sid: accountSid,
    api_version: '2010-04-01',
    body: fields.body,
    date_created: now,
    date_sent: null,
    date_updated: now,
    direction: 'outbound-api',
    error_code: null,
    error_message: null,
    from: fields.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: '1',
    price: null,
    price_unit: 'USD',
    sid,
    status: 'queued',
    subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
    to: fields.to,
    uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
  });
});

let baseUrl: string;
let t: TestApp;
let riverside: string;
const patient = {} as { id: string; phone: string; quietId: string; quietPhone: string; flakyId: string };

async function addPatient(
  app: TestApp,
  instanceId: string,
  lastName: string,
  phone: string,
  values: Partial<typeof patients.$inferInsert> = {},
) {
  const [row] = await app.db
    .insert(patients)
    .values({
      instanceId,
      firstName: 'Rosa',
      lastName,
      dateOfBirth: '1970-01-01',
      email: `${lastName.toLowerCase()}@example.test`,
      ...values,
    })
    .returning({ id: patients.id });
  await app.db.insert(patientPhoneNumbers).values({
    instanceId,
    patientId: row!.id,
    phoneType: 7,
    number: phone,
    digits: phone.replace(/\D/g, '').slice(-10),
    isPrimary: true,
  });
  return row!.id;
}

const queueText = (app: TestApp, input: Partial<MessageInput> & { to: string }) =>
  withSystemAccess(app.appDb, 'outbox-delivery', (tx) =>
    queueMessage({ config: app.config, mailer: createMailer(undefined, 'test@pathwell.test'), jobs: app.app.jobs }, tx, {
      instanceId: riverside,
      channel: 'sms',
      body: 'Riverside Spine & Pain: please complete your forms.',
      template: 'patient-link',
      ...input,
    }),
  );

const messageRow = async (app: TestApp, id: string) => {
  const [row] = await app.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  return row!;
};

const settledRow = (app: TestApp, id: string, status: string, timeoutMs?: number) =>
  waitFor(async () => {
    const row = await messageRow(app, id);
    return row.status === status ? row : undefined;
  }, timeoutMs);

async function jobsFor(app: TestApp, messageId: string) {
  return rowsOf<{ state: string; start_after: Date | string }>(
    app.db,
    sql`select state, start_after from pgboss.job where name = 'deliver-message' and data->>'messageId' = ${messageId}`,
  );
}

const sign = (token: string, path: string, params: Record<string, string>, app = t) =>
  twilio.getExpectedTwilioSignature(token, `${app.config.publicUrl}${path}`, params);

function postTwilio(app: TestApp, path: string, params: Record<string, string>, signature: string) {
  return app.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    payload: new URLSearchParams(params).toString(),
    remoteAddress: nextIp(),
  });
}

function inbound(from: string, body: string, app = t, token = SERVER_ACCOUNT.token) {
  const path = `/api/sms/twilio/${riverside}/inbound`;
  const params = {
    AccountSid: SERVER_ACCOUNT.sid,
    MessageSid: `SM${'9'.repeat(32)}`,
    From: from,
    To: FROM_NUMBER,
    Body: body,
    NumMedia: '0',
  };
  return postTwilio(app, path, params, sign(token, path, params, app));
}

beforeAll(async () => {
  await new Promise<void>((resolve) => fakeTwilio.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(fakeTwilio.address() as AddressInfo).port}`;
  t = await createTestApp({
    TWILIO_ACCOUNT_SID: SERVER_ACCOUNT.sid,
    TWILIO_AUTH_TOKEN: SERVER_ACCOUNT.token,
    TWILIO_FROM_NUMBER: FROM_NUMBER,
    TWILIO_API_BASE_URL: baseUrl,
    JOB_RETRY_LIMIT: '2',
  });
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
  await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
  patient.phone = '+15125550123';
  patient.id = await addPatient(t, riverside, 'Textable', '(512) 555-0123');
  patient.quietPhone = '+15125550124';
  patient.quietId = await addPatient(t, riverside, 'Quiet', '512-555-0124', { enableText: false });
  patient.flakyId = await addPatient(t, riverside, 'Flaky', FLAKY_NUMBER);
});
beforeEach(async () => {
  // Daytime at the clinic unless a test says otherwise: texts go out at once.
  await setInstanceSetting(t.db, riverside, 'timeZoneId', zoneAtHour(12));
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => fakeTwilio.close(() => resolve()));
  expect(problems).toEqual([]);
});

describe('texts through Twilio', () => {
  it('a text reaches Twilio with the documented fields and the outbox keeps its SID', async () => {
    const queued = await queueText(t, { to: '(512) 555-0123', patientId: patient.id });
    expect(queued.status).toBe('queued');
    const row = await settledRow(t, queued.id, 'sent');
    const requests = seen.filter((request) => request.to === patient.phone);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({
      accountSid: SERVER_ACCOUNT.sid,
      to: '+15125550123',
      from: FROM_NUMBER,
      body: 'Riverside Spine & Pain: please complete your forms.',
      statusCallback: `${t.config.publicUrl}/api/sms/twilio/${riverside}/status`,
      answered: 201,
    });
    expect(row.providerMessageId).toBe(request!.sid);
    expect(row.recipient).toBe('+15125550123');
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.error).toBeNull();
    expect(problems).toEqual([]);
  });

  it('a job that fails twice and then succeeds sends exactly once', async () => {
    const queued = await queueText(t, { to: FLAKY_NUMBER, patientId: patient.flakyId });
    expect(queued.status, (await messageRow(t, queued.id)).error ?? '').toBe('queued');
    // Between tries the message waits as queued, with the provider's error.
    const retrying = await waitFor(async () => {
      const row = await messageRow(t, queued.id);
      return row.status === 'queued' && row.error ? row : undefined;
    });
    expect(retrying.error).toMatch(/500/);
    const row = await settledRow(t, queued.id, 'sent', 15_000);
    const requests = seen.filter((request) => request.to === FLAKY_NUMBER);
    expect(requests.map((request) => request.answered)).toEqual([500, 500, 201]);
    expect(row.attempts).toBe(3);
    expect(row.providerMessageId).toBe(requests[2]!.sid);
    expect(row.error).toBeNull();
    // Nothing more is sent after it settled.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(seen.filter((request) => request.to === FLAKY_NUMBER)).toHaveLength(3);
  }, 25_000);
});

describe('status callbacks', () => {
  const statusPath = () => `/api/sms/twilio/${riverside}/status`;
  const report = (sid: string, status: string, extra: Record<string, string> = {}) => ({
    AccountSid: SERVER_ACCOUNT.sid,
    MessageSid: sid,
    SmsSid: sid,
    MessageStatus: status,
    SmsStatus: status,
    From: FROM_NUMBER,
    To: patient.phone,
    ApiVersion: '2010-04-01',
    ...extra,
  });
  const sentText = async () => {
    const queued = await queueText(t, { to: patient.phone, patientId: patient.id });
    return settledRow(t, queued.id, 'sent');
  };

  it('a signed "delivered" report marks the message delivered', async () => {
    const row = await sentText();
    const params = report(row.providerMessageId!, 'delivered');
    const response = await postTwilio(t, statusPath(), params, sign(SERVER_ACCOUNT.token, statusPath(), params));
    expect(response.statusCode, response.body).toBe(204);
    const after = await messageRow(t, row.id);
    expect(after.status).toBe('delivered');
    expect(after.error).toBeNull();
  });

  it('a late "sent" report after "delivered" does not move the message back (callbacks come in any order)', async () => {
    const row = await sentText();
    const delivered = report(row.providerMessageId!, 'delivered');
    expect((await postTwilio(t, statusPath(), delivered, sign(SERVER_ACCOUNT.token, statusPath(), delivered))).statusCode).toBe(
      204,
    );
    const late = report(row.providerMessageId!, 'sent');
    expect((await postTwilio(t, statusPath(), late, sign(SERVER_ACCOUNT.token, statusPath(), late))).statusCode).toBe(204);
    expect((await messageRow(t, row.id)).status).toBe('delivered');
  });

  it('"undelivered" with ErrorCode 30003 keeps the error', async () => {
    const row = await sentText();
    const params = report(row.providerMessageId!, 'undelivered', { ErrorCode: '30003' });
    const response = await postTwilio(t, statusPath(), params, sign(SERVER_ACCOUNT.token, statusPath(), params));
    expect(response.statusCode, response.body).toBe(204);
    const after = await messageRow(t, row.id);
    expect(after.status).toBe('undelivered');
    expect(after.error).toContain('30003');
  });

  it('a wrong or missing signature is refused with 403 and changes nothing', async () => {
    const row = await sentText();
    const params = report(row.providerMessageId!, 'delivered');
    const wrongToken = await postTwilio(t, statusPath(), params, sign('not-the-auth-token', statusPath(), params));
    expect(wrongToken.statusCode).toBe(403);
    expect(wrongToken.json()).toMatchObject({ messageKey: 'requestSignatureInvalid' });
    // Signed for other fields than the ones posted.
    const tampered = await postTwilio(
      t,
      statusPath(),
      params,
      sign(SERVER_ACCOUNT.token, statusPath(), { ...params, MessageStatus: 'sent' }),
    );
    expect(tampered.statusCode).toBe(403);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: statusPath(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    const after = await messageRow(t, row.id);
    expect(after.status).toBe('sent');
    expect(after.updatedAt.getTime()).toBe(row.updatedAt.getTime());
  });
});

describe('inbound keywords', () => {
  const optOut = async (phone: string) => {
    const [row] = await t.db
      .select()
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.instanceId, riverside), eq(smsOptOuts.phone, phone)));
    return row;
  };

  it('STOP opts the number out: the next text is suppressed and never reaches Twilio; START allows texts again', async () => {
    const stop = await inbound(patient.phone, ' stop ');
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.headers['content-type']).toContain('text/xml');
    // Twilio confirms English STOP itself: the answer is an empty TwiML response.
    expect(stop.body).toContain('<Response></Response>');
    expect(await optOut(patient.phone)).toMatchObject({ optedOut: true, keyword: 'STOP' });
    const logs = await t.db.select().from(activityLogs).where(eq(activityLogs.targetId, patient.id));
    expect(logs.some((log) => log.area === 'Patient Profile' && /STOP/.test(log.description ?? ''))).toBe(true);

    const before = seen.length;
    const suppressed = await queueText(t, { to: '512 555 0123', patientId: patient.id });
    expect(suppressed.status).toBe('suppressed');
    expect(await messageRow(t, suppressed.id)).toMatchObject({ status: 'suppressed', error: 'optedOut', attempts: 0 });
    expect(await jobsFor(t, suppressed.id)).toEqual([]);
    // Without a patient the opt-out still holds at delivery: the job finds it and sends nothing.
    const unlinked = await queueText(t, { to: patient.phone, urgent: true });
    expect(unlinked.status).toBe('queued');
    expect(await settledRow(t, unlinked.id, 'suppressed')).toMatchObject({ error: 'optedOut' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(seen.slice(before).filter((request) => request.to === patient.phone)).toEqual([]);

    const start = await inbound(patient.phone, 'START');
    expect(start.statusCode).toBe(200);
    expect(await optOut(patient.phone)).toMatchObject({ optedOut: false, keyword: 'START' });
    const allowed = await queueText(t, { to: patient.phone, patientId: patient.id });
    expect(allowed.status).toBe('queued');
    await settledRow(t, allowed.id, 'sent');
    expect(seen.slice(before).filter((request) => request.to === patient.phone)).toHaveLength(1);
  });

  it('PARAR opts out and is confirmed in Spanish', async () => {
    const response = await inbound(patient.phone, 'Parar');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/<Response><Message>.*no recibirá más mensajes de texto.*<\/Message><\/Response>/);
    expect(await optOut(patient.phone)).toMatchObject({ optedOut: true, keyword: 'PARAR' });
    expect((await queueText(t, { to: patient.phone, patientId: patient.id })).status).toBe('suppressed');
    await inbound(patient.phone, 'START');
    expect(await optOut(patient.phone)).toMatchObject({ optedOut: false });
  });

  it('HELP and AYUDA answer with the clinic name and change nothing', async () => {
    const other = '+15125550999';
    const help = await inbound(other, 'HELP');
    expect(help.statusCode).toBe(200);
    // The clinic name is escaped for XML.
    expect(help.body).toContain('<Message>Riverside Spine &amp; Pain: messages about your appointments and forms.');
    expect(help.body).toContain('(512) 555-0142');
    const ayuda = await inbound(other, 'ayuda');
    expect(ayuda.body).toContain('Riverside Spine &amp; Pain: mensajes sobre sus citas');
    expect(await optOut(other)).toBeUndefined();
  });

  it('an unsigned inbound text is refused and records nothing', async () => {
    const path = `/api/sms/twilio/${riverside}/inbound`;
    const params = { From: '+15125550888', To: FROM_NUMBER, Body: 'STOP' };
    const response = await postTwilio(t, path, params, sign(CLINIC_ACCOUNT.token, path, params));
    expect(response.statusCode).toBe(403);
    expect(await optOut('+15125550888')).toBeUndefined();
  });
});

describe("the clinic's and the patient's switches", () => {
  it('clinic SMS off: suppressed as clinicSmsOff, no job', async () => {
    await setInstanceSetting(t.db, riverside, 'enableSms', 'false');
    try {
      const queued = await queueText(t, { to: patient.phone, patientId: patient.id });
      expect(queued.status).toBe('suppressed');
      expect(await messageRow(t, queued.id)).toMatchObject({ status: 'suppressed', error: 'clinicSmsOff' });
      expect(await jobsFor(t, queued.id)).toEqual([]);
    } finally {
      await setInstanceSetting(t.db, riverside, 'enableSms', 'true');
    }
  });

  it('patient texts off: suppressed as patientTextOff, no job', async () => {
    const queued = await queueText(t, { to: patient.quietPhone, patientId: patient.quietId });
    expect(queued.status).toBe('suppressed');
    expect(await messageRow(t, queued.id)).toMatchObject({ status: 'suppressed', error: 'patientTextOff' });
    expect(await jobsFor(t, queued.id)).toEqual([]);
    expect(seen.some((request) => request.to === patient.quietPhone)).toBe(false);
  });
});

describe('daytime for texts', () => {
  it('nextDaytime keeps texts to 08:00–21:00 clinic time (America/Chicago)', () => {
    const chicago = 'America/Chicago';
    // 22:30 CST on January 15th → 08:00 CST the next day.
    expect(nextDaytime(new Date('2026-01-16T04:30:00Z'), chicago).toISOString()).toBe('2026-01-16T14:00:00.000Z');
    // 05:00 CST → 08:00 the same day.
    expect(nextDaytime(new Date('2026-01-15T11:00:00Z'), chicago).toISOString()).toBe('2026-01-15T14:00:00.000Z');
    // 12:00 CST: daytime, unchanged.
    const noon = new Date('2026-01-15T18:00:00Z');
    expect(nextDaytime(noon, chicago)).toEqual(noon);
    // The edges: 08:00 is daytime, 21:00 is not.
    expect(nextDaytime(new Date('2026-01-15T14:00:00Z'), chicago).toISOString()).toBe('2026-01-15T14:00:00.000Z');
    expect(nextDaytime(new Date('2026-01-16T03:00:00Z'), chicago).toISOString()).toBe('2026-01-16T14:00:00.000Z');
    // Across a month's end, and into the spring-forward day (08:00 CDT is 13:00 UTC).
    expect(nextDaytime(new Date('2026-02-01T04:30:00Z'), chicago).toISOString()).toBe('2026-02-01T14:00:00.000Z');
    expect(nextDaytime(new Date('2026-03-08T04:30:00Z'), chicago).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    // Summer time: 23:00 CDT on July 1st → 08:00 CDT on July 2nd.
    expect(nextDaytime(new Date('2026-07-02T04:00:00Z'), chicago).toISOString()).toBe('2026-07-02T13:00:00.000Z');
  });

  it('a text queued at night in the clinic is scheduled for 08:00 clinic time with a delayed job; an urgent one goes now', async () => {
    const zone = zoneAtHour(23);
    await setInstanceSetting(t.db, riverside, 'timeZoneId', zone);
    const before = seen.length;
    const queued = await queueText(t, { to: patient.phone, patientId: patient.id });
    expect(queued.status).toBe('scheduled');
    const row = await messageRow(t, queued.id);
    expect(row.status).toBe('scheduled');
    const sendAfter = row.sendAfter!;
    expect(clinicClock(sendAfter, zone)).toMatchObject({ hour: 8, minute: 0, second: 0 });
    const wait = sendAfter.getTime() - Date.now();
    expect(wait).toBeGreaterThan(8 * 3_600_000);
    expect(wait).toBeLessThanOrEqual(9 * 3_600_000);
    const jobs = await jobsFor(t, queued.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]!.start_after).getTime()).toBe(sendAfter.getTime());

    const urgent = await queueText(t, { to: patient.phone, patientId: patient.id, urgent: true });
    expect(urgent.status).toBe('queued');
    await settledRow(t, urgent.id, 'sent');
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Only the urgent one went out; the night one still waits.
    expect(seen.slice(before).filter((request) => request.to === patient.phone)).toHaveLength(1);
    expect((await messageRow(t, queued.id)).status).toBe('scheduled');
  });
});

describe('without a server Twilio account', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ TWILIO_API_BASE_URL: baseUrl });
    await setInstanceSetting(bare.db, riverside, 'enableSms', 'true');
    await setInstanceSetting(bare.db, riverside, 'timeZoneId', zoneAtHour(12));
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('a text stays stored and the dashboard says SMS has no provider', async () => {
    const before = seen.length;
    const queued = await queueText(bare, { to: patient.phone });
    expect(queued.status).toBe('stored');
    expect(await jobsFor(bare, queued.id)).toEqual([]);
    const admin = await signIn(bare.app, 'admin@pathwell.demo');
    const response = await bare.app.inject({
      method: 'POST',
      url: '/api/communications/filtered',
      headers: admin.headers,
      payload: { channel: 'sms', status: 'stored' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<CommunicationPage>();
    expect(page.providers).toEqual({ email: false, sms: false });
    expect(page.data.some((message) => message.id === queued.id)).toBe(true);
    // The app with a server account says it has one.
    const withTwilio = await t.app.inject({
      method: 'POST',
      url: '/api/communications/filtered',
      headers: (await signIn(t.app, 'admin@pathwell.demo')).headers,
      payload: {},
    });
    expect(withTwilio.json<CommunicationPage>().providers.sms).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(seen.length).toBe(before);
  });

  it("the clinic's own Twilio account sends with its SID and signs its callbacks with its token", async () => {
    await setInstanceSetting(bare.db, riverside, 'useTwilio', 'true');
    await setInstanceSetting(bare.db, riverside, 'twilioAccountSid', CLINIC_ACCOUNT.sid);
    await setInstanceSetting(
      bare.db,
      riverside,
      'twilioAuthToken',
      encryptSetting(bare.config.appSecret, riverside, 'twilioAuthToken', CLINIC_ACCOUNT.token),
    );
    await setInstanceSetting(bare.db, riverside, 'defaultSmsNumber', '(512) 555-0142');
    const queued = await queueText(bare, { to: patient.phone });
    expect(queued.status).toBe('queued');
    const row = await settledRow(bare, queued.id, 'sent');
    const request = seen.find((entry) => entry.sid === row.providerMessageId)!;
    expect(request).toMatchObject({ accountSid: CLINIC_ACCOUNT.sid, from: '+15125550142', to: patient.phone });

    const path = `/api/sms/twilio/${riverside}/status`;
    const params = { AccountSid: CLINIC_ACCOUNT.sid, MessageSid: row.providerMessageId!, MessageStatus: 'delivered' };
    const serverSigned = await postTwilio(bare, path, params, sign(SERVER_ACCOUNT.token, path, params, bare));
    expect(serverSigned.statusCode).toBe(403);
    const clinicSigned = await postTwilio(bare, path, params, sign(CLINIC_ACCOUNT.token, path, params, bare));
    expect(clinicSigned.statusCode, clinicSigned.body).toBe(204);
    expect((await messageRow(bare, queued.id)).status).toBe('delivered');
  });
});
