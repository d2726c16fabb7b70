import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances, instanceSettings, outboxMessages, patients } from '../../db/schema';
import { withSystemAccess } from '../../db/tenancy';
import { createTestApp, type TestApp, waitFor } from '../../../test/test-app';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { clinicTimeZone } from '../settings/settings.service';
import { createMailer, queueMessage } from './outbox.service';
import { deliverMessage } from './message-delivery.service';

const received: { to: string; raw: string }[] = [];
const REFUSED = 'admin@pathwell.demo';
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  // One mailbox the provider refuses, so a failed delivery can be watched end to end.
  onRcptTo(address, _session, callback) {
    if (address.address === REFUSED) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    callback();
  },
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
      callback();
    });
  },
});

let t: TestApp;
let smtpUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  smtpUrl = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  // Three tries in all (1 + 2 retries), a second apart and doubling: a refusal settles within seconds.
  t = await createTestApp({ SMTP_URL: smtpUrl, JOB_RETRY_LIMIT: '2' });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('email through SMTP', () => {
  it('a reset email is stored in the outbox, delivered over SMTP and marked sent', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgetPassword',
      payload: { email: 'staff@pathwell.demo' },
    });
    expect(response.statusCode).toBe(200);
    const mail = await waitFor(async () => received.find((message) => message.to === 'staff@pathwell.demo'));
    expect(mail.raw).toContain('Reset your Pathwell password');
    const row = await waitFor(async () => {
      const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'staff@pathwell.demo'));
      return message?.status === 'sent' ? message : undefined;
    });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('a message the provider refuses is retried, then kept as failed with the reason, and the request still succeeds', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/forgetPassword', payload: { email: REFUSED } });
    expect(response.statusCode).toBe(200);
    const readRow = async () => {
      const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, REFUSED));
      return message;
    };
    // After a refused try with retries left it waits as queued, with the reason and the tries so far.
    const retrying = await waitFor(async () => {
      const message = await readRow();
      return message?.status === 'queued' && message.error ? message : undefined;
    });
    expect(retrying.error).toMatch(/550|Mailbox unavailable/);
    expect(retrying.attempts).toBeGreaterThanOrEqual(1);
    expect(retrying.attempts).toBeLessThan(3);
    const row = await waitFor(async () => {
      const message = await readRow();
      return message?.status === 'failed' ? message : undefined;
    }, 15_000);
    expect(row.attempts).toBe(3);
    expect(row.error).toMatch(/550|Mailbox unavailable/);
    expect(row.sentAt).toBeNull();
    expect(row.providerMessageId).toBeNull();
    expect(received.some((message) => message.to === REFUSED)).toBe(false);
    // The last try settled it: no job is left to try again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await readRow())!).toMatchObject({ status: 'failed', attempts: 3 });
  }, 25_000);
});

describe("queueing in the caller's transaction", () => {
  const deliveryJobs = async () => {
    const rows = await rowsOf<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from pgboss.job where name = 'deliver-message'`,
    );
    return rows[0]!.count;
  };
  const rowsTo = (recipient: string) => t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, recipient));
  const queueIn = async (recipient: string, commit: boolean) => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const deps = { config: t.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: t.app.jobs };
    return withSystemAccess(t.appDb, 'outbox-delivery', async (tx) => {
      const queued = await queueMessage(deps, tx, {
        instanceId: clinic!.id,
        channel: 'email',
        to: recipient,
        subject: 'Your forms',
        body: 'Please complete your forms.',
        template: 'patient-link',
      });
      expect(queued.status).toBe('queued');
      // Inside the transaction both exist.
      expect(await tx.select().from(outboxMessages).where(eq(outboxMessages.id, queued.id))).toHaveLength(1);
      if (!commit) throw new Error('roll back');
      return queued;
    });
  };

  it('a transaction that rolls back leaves no outbox row and no delivery job, and sends nothing', async () => {
    const before = await deliveryJobs();
    await expect(queueIn('rolled.back@example.test', false)).rejects.toThrow('roll back');
    expect(await rowsTo('rolled.back@example.test')).toEqual([]);
    expect(await deliveryJobs()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(received.some((message) => message.to === 'rolled.back@example.test')).toBe(false);
  });

  it('the same work committed leaves the row and one job, and the message goes out', async () => {
    const before = await deliveryJobs();
    const queued = await queueIn('committed@example.test', true);
    expect(await rowsTo('committed@example.test')).toHaveLength(1);
    expect(await deliveryJobs()).toBe(before + 1);
    await waitFor(async () => received.find((message) => message.to === 'committed@example.test'));
    const row = await waitFor(async () => {
      const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, queued.id));
      return message?.status === 'sent' ? message : undefined;
    });
    expect(row.attempts).toBe(1);
  });
});

describe('who sends, and never twice', () => {
  it("the clinic's defaultEmailSender is the From of its emails", async () => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    await t.db
      .insert(instanceSettings)
      .values({ instanceId: clinic!.id, configurationId: 'defaultEmailSender', configurationValue: 'frontdesk@riverside.test' })
      .onConflictDoUpdate({
        target: [instanceSettings.instanceId, instanceSettings.configurationId],
        set: { configurationValue: 'frontdesk@riverside.test' },
      });
    const deps = { config: t.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: t.app.jobs };
    await withSystemAccess(t.appDb, 'outbox-delivery', (tx) =>
      queueMessage(deps, tx, {
        instanceId: clinic!.id,
        channel: 'email',
        to: 'from.check@example.test',
        subject: 'Hello',
        body: 'Hello',
        template: 'patient-link',
      }),
    );
    const mail = await waitFor(async () => received.find((message) => message.to === 'from.check@example.test'));
    expect(mail.raw).toMatch(/^From: frontdesk@riverside\.test/m);
  });

  it('a message that already has the provider id is not handed to the provider again', async () => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const [row] = await t.db
      .insert(outboxMessages)
      .values({
        instanceId: clinic!.id,
        channel: 'email',
        recipient: 'twice@example.test',
        subject: 'Once',
        body: 'Once',
        template: 'patient-link',
        status: 'queued',
        attempts: 1,
        providerMessageId: '<already-accepted@pathwell.test>',
      })
      .returning();
    let handedOver = 0;
    const mailer = {
      configured: true,
      deliver: async () => {
        handedOver += 1;
        return { providerMessageId: '<second@pathwell.test>' };
      },
    };
    await deliverMessage({ root: t.appDb, config: t.config, mailer }, row!.id, { retryCount: 1, retryLimit: 5 });
    expect(handedOver).toBe(0);
    const [after] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, row!.id));
    expect(after).toMatchObject({ attempts: 1, providerMessageId: '<already-accepted@pathwell.test>' });
    // The control: the same row without a provider id goes out once.
    await t.db.update(outboxMessages).set({ providerMessageId: null }).where(eq(outboxMessages.id, row!.id));
    await deliverMessage({ root: t.appDb, config: t.config, mailer }, row!.id, { retryCount: 1, retryLimit: 5 });
    expect(handedOver).toBe(1);
  });
});

describe('care messages apart from optional ones (issue #24 §5, decision 0065)', () => {
  it('a patient who declined optional emails still gets care emails; a campaign email is kept back with the reason', async () => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const [patient] = await t.db
      .insert(patients)
      .values({
        instanceId: clinic!.id,
        firstName: 'Ana',
        lastName: 'Reyes',
        dateOfBirth: '1970-03-04',
        email: 'ana.optional@example.test',
        outreachEmail: false,
      })
      .returning({ id: patients.id });
    const deps = { config: t.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: t.app.jobs };
    const send = (template: string) =>
      withSystemAccess(t.appDb, 'outbox-delivery', (tx) =>
        queueMessage(deps, tx, {
          instanceId: clinic!.id,
          patientId: patient!.id,
          channel: 'email',
          to: 'ana.optional@example.test',
          subject: 'Hello',
          body: 'Hello',
          template,
        }),
      );
    expect(await send('intake')).toMatchObject({ status: 'queued', suppressed: null });
    expect(await send('patient-link')).toMatchObject({ status: 'queued', suppressed: null });
    expect(await send('campaign')).toMatchObject({ status: 'suppressed', suppressed: 'patientOptionalOff' });
  });
});

describe("the clinic's daily cap per patient (issue #24 §5, decision 0066)", () => {
  it('holds the fourth automatic email of a clinic day to the next clinic morning; a sign-in code or a link sent by hand is never held', async () => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const [patient] = await t.db
      .insert(patients)
      .values({
        instanceId: clinic!.id,
        firstName: 'Ana',
        lastName: 'Tope',
        dateOfBirth: '1970-03-04',
        email: 'ana.capped@example.test',
      })
      .returning({ id: patients.id });
    const deps = { config: t.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: t.app.jobs };
    const timeZone = await clinicTimeZone(t.db, clinic!.id);
    // The clock: 10:00 on a clinic day far from today, so no other test's messages share the day.
    const now = instantOfClinicTime(2031, 3, 12, timeZone, 10, 0);
    const send = (template: string, automatic: boolean) =>
      withSystemAccess(t.appDb, 'outbox-delivery', (tx) =>
        queueMessage(deps, tx, {
          instanceId: clinic!.id,
          patientId: patient!.id,
          channel: 'email',
          to: 'ana.capped@example.test',
          subject: 'Hello',
          body: 'Hello',
          template,
          automatic,
          now,
        }),
      );
    const stored = async (id: string) => (await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]!;

    for (let index = 0; index < 3; index++) {
      const queued = await send('pathway-education', true);
      expect(queued.status).toBe('queued');
      expect((await stored(queued.id)).error).toBeNull();
    }
    const fourth = await send('pathway-education', true);
    expect(fourth.status).toBe('scheduled');
    const held = await stored(fourth.id);
    expect(held.error).toBe('heldDailyCap');
    expect(held.sendAfter).toEqual(instantOfClinicTime(2031, 3, 13, timeZone, 8, 0));

    // Care messages go at once whatever the count.
    for (const template of ['link-code', 'two-factor-code', 'intake']) {
      const queued = await send(template, false);
      expect(queued.status).toBe('queued');
      const row = await stored(queued.id);
      expect(row.error).toBeNull();
      expect(row.sendAfter).toBeNull();
    }
    // The next automatic one waits behind the held one: the next morning still has room (one of three).
    const fifth = await stored((await send('campaign', true)).id);
    expect(fifth.sendAfter).toEqual(instantOfClinicTime(2031, 3, 13, timeZone, 8, 0));
  });
});

// PostgreSQL only: PGlite has one connection and runs one transaction at a time, so two senders cannot race on it.
describe.skipIf(!process.env.DATABASE_URL)('the daily cap with two senders at once (decision 0066)', () => {
  it('the second sender waits for the first to commit and counts its message: the cap is not passed by one', async () => {
    const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
    const [patient] = await t.db
      .insert(patients)
      .values({
        instanceId: clinic!.id,
        firstName: 'Ana',
        lastName: 'Carrera',
        dateOfBirth: '1970-03-04',
        email: 'ana.race@example.test',
      })
      .returning({ id: patients.id });
    const deps = { config: t.config, mailer: createMailer(smtpUrl, 'test@pathwell.test'), jobs: t.app.jobs };
    const timeZone = await clinicTimeZone(t.db, clinic!.id);
    // The clock: 10:00 on a clinic day of its own (cap 3, the clinic's default).
    const now = instantOfClinicTime(2031, 4, 9, timeZone, 10, 0);
    const message = {
      instanceId: clinic!.id,
      patientId: patient!.id,
      channel: 'email' as const,
      to: 'ana.race@example.test',
      subject: 'Hello',
      body: 'Hello',
      template: 'pathway-education',
      automatic: true,
      now,
    };
    for (let index = 0; index < 2; index++) {
      await withSystemAccess(t.appDb, 'outbox-delivery', (tx) => queueMessage(deps, tx, message));
    }

    // The first sender queues the third message and keeps its transaction open until the second sender has
    // queued too (or half a second has passed, when the second is waiting for it).
    let firstQueued!: () => void;
    let secondQueued!: () => void;
    const firstIsQueued = new Promise<void>((resolve) => (firstQueued = resolve));
    const secondIsQueued = new Promise<void>((resolve) => (secondQueued = resolve));
    const first = withSystemAccess(t.appDb, 'outbox-delivery', async (tx) => {
      const queued = await queueMessage(deps, tx, message);
      firstQueued();
      await Promise.race([secondIsQueued, new Promise((resolve) => setTimeout(resolve, 500))]);
      return queued;
    });
    await firstIsQueued;
    const second = withSystemAccess(t.appDb, 'outbox-delivery', async (tx) => {
      const queued = await queueMessage(deps, tx, message);
      secondQueued();
      return queued;
    });
    const [third, fourth] = await Promise.all([first, second]);

    expect(third.status).toBe('queued');
    expect(fourth.status).toBe('scheduled');
    const rows = await t.db.select().from(outboxMessages).where(eq(outboxMessages.patientId, patient!.id));
    expect(rows.filter((row) => row.error === null)).toHaveLength(3);
    expect(rows.find((row) => row.id === fourth.id)).toMatchObject({
      error: 'heldDailyCap',
      sendAfter: instantOfClinicTime(2031, 4, 10, timeZone, 8, 0),
    });
  });
});
