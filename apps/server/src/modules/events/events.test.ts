import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPatientLink } from '@pathwell/contracts/patient-links';
import { appointments, instances, patients } from '../../db/schema';
import { createSecondApp, createTestApp, nextIp, signIn, type TestApp } from '../../../test/test-app';

let t: TestApp;
let baseUrl: string;
let riverside: string;
const tokens = {} as Record<'admin' | 'staff' | 'admin2', { headers: Record<string, string>; id: string }>;
const streams: EventStream[] = [];

/** One open /api/events stream, read as text: waits for a named event after what was already read. */
class EventStream {
  private text = '';
  private position = 0;
  private ended = false;
  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string>) {
    const controller = new AbortController();
    const response = await fetch(`${url}/api/events`, { headers, signal: controller.signal });
    const stream = new EventStream(response, controller);
    streams.push(stream);
    if (response.ok && response.body) void stream.pump(response.body.getReader());
    return stream;
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>) {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted
    }
    this.ended = true;
  }

  /** Resolves true when `event: name` arrives within the time, false otherwise. */
  async next(name: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const marker = `event: ${name}\n`;
      const at = this.text.indexOf(marker, this.position);
      if (at >= 0) {
        const end = this.text.indexOf('\n\n', at);
        if (end >= 0) {
          this.position = end + 2;
          return true;
        }
      }
      if (this.ended || Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Everything heard after the last event read. */
  get rest() {
    return this.text.slice(this.position);
  }

  close() {
    this.abort.abort();
  }
}

/** Staff of Riverside send a link for a new appointment; the patient completes it: a notification. */
async function completeAppointmentForms(app: FastifyInstance, staffHeaders: Record<string, string>) {
  const [patient] = await t.db
    .insert(patients)
    .values({ instanceId: riverside, firstName: 'Elena', lastName: 'Varga', dateOfBirth: '1979-06-21', email: null })
    .returning({ id: patients.id });
  const [appointment] = await t.db
    .insert(appointments)
    .values({ instanceId: riverside, patientId: patient!.id, startsAt: new Date(Date.now() + 86_400_000) })
    .returning({ id: appointments.id });
  const created = await app.inject({
    method: 'POST',
    url: '/api/patient-links',
    headers: staffHeaders,
    payload: { patientId: patient!.id, appointmentId: appointment!.id, formCode: 11, language: 'en' },
    remoteAddress: nextIp(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const { token } = created.json<CreatedPatientLink>();
  const verified = await app.inject({
    method: 'POST',
    url: `/api/patient-links/${token}/verify`,
    payload: { lastName: 'Varga', dateOfBirth: '06/21/1979' },
    remoteAddress: nextIp(),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const submitted = await app.inject({
    method: 'POST',
    url: `/api/patient-links/${token}/submit`,
    headers: { authorization: `Bearer ${verified.json<{ accessToken: string }>().accessToken}` },
    payload: {
      idempotencyKey: randomUUID(),
      language: 'en',
      answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0, q8: 0, q9: 0, q10: 0 },
    },
    remoteAddress: nextIp(),
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
  tokens.admin = await signIn(t.app, 'admin@pathwell.demo');
  tokens.staff = await signIn(t.app, 'staff@pathwell.demo');
  tokens.admin2 = await signIn(t.app, 'admin2@pathwell.demo');
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

describe('GET /api/events', () => {
  it('streams "ready", then "notification" when a clinic\'s forms are completed; not to another clinic', async () => {
    const admin = await EventStream.open(baseUrl, tokens.admin.headers);
    expect(admin.response.status).toBe(200);
    expect(admin.response.headers.get('content-type')).toContain('text/event-stream');
    expect(admin.response.headers.get('cache-control')).toContain('no-cache');
    const lakeside = await EventStream.open(baseUrl, tokens.admin2.headers);
    expect(await admin.next('ready', 2000)).toBe(true);
    expect(await lakeside.next('ready', 2000)).toBe(true);
    // Nothing has happened yet.
    expect(await admin.next('notification', 200)).toBe(false);

    // How soon it arrives is not timed here (a busy machine only waits longer); that it arrives is.
    await completeAppointmentForms(t.app, tokens.staff.headers);
    expect(await admin.next('notification', 15_000)).toBe(true);
    expect(await lakeside.next('notification', 500)).toBe(false);
    // The event says what to read again, never patient data.
    expect(lakeside.rest).not.toContain('Varga');
  });

  it("marking notifications seen reaches that user's other streams only", async () => {
    const adminTab = await EventStream.open(baseUrl, tokens.admin.headers);
    const staffTab = await EventStream.open(baseUrl, tokens.staff.headers);
    expect(await adminTab.next('ready', 2000)).toBe(true);
    expect(await staffTab.next('ready', 2000)).toBe(true);
    const cleared = await t.app.inject({ method: 'POST', url: '/api/notifications/clearall', headers: tokens.admin.headers });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<{ marked: number }>().marked).toBeGreaterThan(0);
    expect(await adminTab.next('notification', 2000)).toBe(true);
    expect(await staffTab.next('notification', 500)).toBe(false);
  });

  it('answers 401 without a token or with a bad one', async () => {
    const anonymous = await fetch(`${baseUrl}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/json');
    const body = (await anonymous.json()) as { messageKey?: string };
    expect(typeof body.messageKey).toBe('string');
    const forged = await fetch(`${baseUrl}/api/events`, { headers: { authorization: 'Bearer not-a-real-token' } });
    expect(forged.status).toBe(401);
    await forged.body?.cancel();
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'a stream on another server process hears a notification caused through this one',
    async () => {
      const second = await createSecondApp(t);
      try {
        await second.app.listen({ port: 0, host: '127.0.0.1' });
        const secondUrl = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`;
        const admin = await signIn(second.app, 'admin@pathwell.demo');
        const onB = await EventStream.open(secondUrl, admin.headers);
        const lakesideOnB = await EventStream.open(secondUrl, (await signIn(second.app, 'admin2@pathwell.demo')).headers);
        expect(onB.response.status).toBe(200);
        expect(await onB.next('ready', 2000)).toBe(true);
        expect(await lakesideOnB.next('ready', 2000)).toBe(true);
        await completeAppointmentForms(t.app, tokens.staff.headers);
        expect(await onB.next('notification', 2000)).toBe(true);
        expect(await lakesideOnB.next('notification', 500)).toBe(false);
        onB.close();
        lakesideOnB.close();
      } finally {
        await second.close();
      }
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'when the LISTEN connection is cut, it comes back, streams are told to read again, and later events still arrive',
    async () => {
      const admin = await EventStream.open(baseUrl, tokens.admin.headers);
      expect(await admin.next('ready', 2000)).toBe(true);
      const cut = await rowsOf<{ cut: boolean }>(
        t.db,
        sql`select pg_terminate_backend(pid) as cut from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
      );
      expect(cut.length).toBeGreaterThan(0);
      // Whatever was published while it was away is lost: the catch-up says "read again".
      expect(await admin.next('notification', 5000)).toBe(true);
      expect(await admin.next('message', 1000)).toBe(true);
      await completeAppointmentForms(t.app, tokens.staff.headers);
      expect(await admin.next('notification', 3000)).toBe(true);
      admin.close();
    },
  );
});
