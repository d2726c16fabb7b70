import type { AddressInfo } from 'node:net';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/sql-rows';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clinicClock,
  clinicDayStartAfter,
  clinicMdy,
  clinicTodayStart,
  instantOfClinicTime,
} from '@pathwell/contracts/clinic-time';
import {
  outboxStatuses,
  type CommunicationCounts,
  type CommunicationMessage,
  type CommunicationPage,
} from '@pathwell/contracts/messaging';
import { instances, outboxMessages, patients } from '../../db/schema';
import { openBody } from '../outbox/outbox.service';
import { createTestApp, nextIp, signIn, type TestApp, waitFor } from '../../../test/test-app';

const received: { to: string; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
      callback();
    });
  },
});

const ZONE = 'America/Chicago';
let smtpUrl: string;
let t: TestApp;
let riverside: string;
type Who = 'admin' | 'staff' | 'doctor' | 'admin2';
const tokens = {} as Record<Who, { headers: Record<string, string> }>;
const ids = {} as { patient: string; failedEmail: string; sentSms: string; storedSms: string; oldEmail: string };
let threeDaysAgo: Date;

const call = (method: 'GET' | 'POST', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as].headers, payload: payload as object | undefined, remoteAddress: nextIp() });
const list = async (payload: Record<string, unknown>, as: Who = 'admin') => {
  const response = await call('POST', '/api/communications/filtered', as, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CommunicationPage>();
};
const idsOf = (page: CommunicationPage) => page.data.map((message) => message.id).sort();

async function jobsFor(app: TestApp, messageId: string) {
  const rows = await rowsOf<{ count: number }>(
    app.db,
    sql`select count(*)::int as count from pgboss.job where name = 'deliver-message' and data->>'messageId' = ${messageId}`,
  );
  return rows[0]!.count;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`;
  t = await createTestApp({ SMTP_URL: smtpUrl });
  const [clinic] = await t.db.select().from(instances).where(eq(instances.name, 'Riverside Spine & Pain'));
  riverside = clinic!.id;
  for (const [who, email] of [
    ['admin', 'admin@pathwell.demo'],
    ['staff', 'staff@pathwell.demo'],
    ['doctor', 'doctor@pathwell.demo'],
    ['admin2', 'admin2@pathwell.demo'],
  ] as const) {
    tokens[who] = await signIn(t.app, email);
  }
  const [patient] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Lucía',
      lastName: 'Benítez',
      dateOfBirth: '1981-02-03',
      email: 'lucia@example.test',
    })
    .returning({ id: patients.id });
  ids.patient = patient!.id;
  const today = clinicClock(new Date(), ZONE);
  // Noon in the clinic, three clinic days ago: far from any day's edge.
  threeDaysAgo = instantOfClinicTime(today.year, today.month, today.day - 3, ZONE, 12);
  const insert = async (values: Partial<typeof outboxMessages.$inferInsert>) => {
    const [row] = await t.db
      .insert(outboxMessages)
      .values({
        instanceId: riverside,
        channel: 'email',
        recipient: 'lucia@example.test',
        subject: 'Riverside Spine & Pain: your forms',
        body: 'Please complete your forms before your visit.',
        template: 'patient-link',
        patientId: ids.patient,
        ...values,
      })
      .returning({ id: outboxMessages.id });
    return row!.id;
  };
  ids.failedEmail = await insert({
    status: 'failed',
    error: '550: Mailbox unavailable',
    attempts: 6,
    createdAt: threeDaysAgo,
    updatedAt: threeDaysAgo,
  });
  ids.sentSms = await insert({
    channel: 'sms',
    recipient: '+15125551234',
    subject: null,
    template: 'perioperative',
    status: 'sent',
    attempts: 1,
    providerMessageId: 'SM00000000000000000000000000000001',
    sentAt: new Date(),
  });
  ids.storedSms = await insert({ channel: 'sms', recipient: '+15125551234', subject: null, status: 'stored' });
  // Before the counts' 14 days.
  const old = new Date(Date.now() - 40 * 86_400_000);
  ids.oldEmail = await insert({ status: 'delivered', createdAt: old, updatedAt: old });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('communication dashboard', () => {
  it("lists the clinic's messages newest first, with masked recipients", async () => {
    const page = await list({ patientId: ids.patient });
    expect(page.totalRecords).toBe(4);
    expect(page.data.map((message) => message.id)).toEqual([ids.storedSms, ids.sentSms, ids.failedEmail, ids.oldEmail]);
    const byId = Object.fromEntries(page.data.map((message) => [message.id, message])) as Record<string, CommunicationMessage>;
    expect(byId[ids.failedEmail]).toMatchObject({
      channel: 'email',
      recipient: 'l•••@example.test',
      template: 'patient-link',
      patient: { id: ids.patient, name: 'Lucía Benítez' },
      status: 'failed',
      error: '550: Mailbox unavailable',
      attempts: 6,
      resendable: true,
    });
    expect(byId[ids.sentSms]).toMatchObject({ channel: 'sms', recipient: '•••1234', status: 'sent', resendable: false });
    expect(byId[ids.storedSms]).toMatchObject({ recipient: '•••1234', status: 'stored', resendable: true });
    const raw = JSON.stringify(page);
    expect(raw).not.toContain('lucia@example.test');
    expect(raw).not.toContain('5125551234');
    expect(raw).not.toContain('Please complete your forms');
    expect(page.providers).toEqual({ email: true, sms: false });
    // Paging.
    const second = await list({ patientId: ids.patient, paginationFilter: { pageNumber: 1, pageSize: 3, exactTotal: true } });
    expect(second.data.map((message) => message.id)).toEqual([ids.oldEmail]);
    expect(second.totalRecords).toBe(4);
  });

  it('filters by channel, status, template, patient and clinic date range', async () => {
    const patientId = ids.patient;
    expect(idsOf(await list({ patientId, channel: 'sms' }))).toEqual([ids.sentSms, ids.storedSms].sort());
    expect(idsOf(await list({ patientId, channel: 'email' }))).toEqual([ids.failedEmail, ids.oldEmail].sort());
    expect(idsOf(await list({ patientId, status: 'failed' }))).toEqual([ids.failedEmail]);
    expect(idsOf(await list({ patientId, template: 'perioperative' }))).toEqual([ids.sentSms]);
    expect(idsOf(await list({ patientId, channel: 'sms', status: 'stored' }))).toEqual([ids.storedSms]);
    const day = clinicMdy(threeDaysAgo, ZONE);
    expect(idsOf(await list({ patientId, startDate: day, endDate: day }))).toEqual([ids.failedEmail]);
    const today = clinicMdy(new Date(), ZONE);
    expect(idsOf(await list({ patientId, startDate: day, endDate: today }))).toEqual(
      [ids.failedEmail, ids.sentSms, ids.storedSms].sort(),
    );
    expect(idsOf(await list({ patientId, endDate: clinicMdy(new Date(Date.now() - 10 * 86_400_000), ZONE) }))).toEqual([
      ids.oldEmail,
    ]);
    // Empty filter values mean "any".
    expect((await list({ patientId, channel: '', status: null, template: '', startDate: '' })).totalRecords).toBe(4);
    // Every status filter matches only that status across the clinic.
    const failed = await list({ status: 'failed', paginationFilter: { pageNumber: 0, pageSize: 100 } });
    expect(failed.data.length).toBeGreaterThan(0);
    expect(failed.data.every((message) => message.status === 'failed')).toBe(true);
  });

  it('answers 400 with the field errors of a bad filter', async () => {
    const badStatus = await call('POST', '/api/communications/filtered', 'admin', { status: 'nope' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({ code: 'VALIDATION', fields: { status: 'invalid' } });
    const badDate = await call('POST', '/api/communications/filtered', 'admin', { startDate: '13/45/2020', channel: 'fax' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json()).toMatchObject({ fields: { startDate: 'dateInvalid', channel: 'invalid' } });
    const badPatient = await call('POST', '/api/communications/filtered', 'admin', { patientId: 'not-an-id' });
    expect(badPatient.statusCode).toBe(400);
    expect(Object.keys(badPatient.json<{ fields: object }>().fields)).toEqual(['patientId']);
  });

  it('Staff and Doctor may not use the dashboard', async () => {
    for (const who of ['staff', 'doctor'] as const) {
      expect((await call('POST', '/api/communications/filtered', who, {})).statusCode).toBe(403);
      expect((await call('GET', '/api/communications/counts', who)).statusCode).toBe(403);
      expect((await call('POST', '/api/communications/exporttocsv', who, {})).statusCode).toBe(403);
      expect((await call('POST', `/api/communications/${ids.failedEmail}/resend`, who)).statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/communications/filtered', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, ids.failedEmail)))[0]!.status).toBe('failed');
  });

  it("another clinic's admin sees none of this clinic's messages and cannot resend them", async () => {
    const page = await list({ paginationFilter: { pageNumber: 0, pageSize: 100, exactTotal: true } }, 'admin2');
    for (const id of Object.values(ids)) expect(page.data.some((message) => message.id === id)).toBe(false);
    expect((await list({ patientId: ids.patient }, 'admin2')).totalRecords).toBe(0);
    const resend = await call('POST', `/api/communications/${ids.failedEmail}/resend`, 'admin2');
    expect(resend.statusCode).toBe(404);
    expect(resend.json()).toMatchObject({ messageKey: 'messageNotFound' });
    expect(await jobsFor(t, ids.failedEmail)).toBe(0);
  });

  it('exports the filtered messages as CSV with a byte-order mark and a header row', async () => {
    const response = await call('POST', '/api/communications/exporttocsv', 'admin', { patientId: ids.patient });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('communications.csv');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = response.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time,Channel,Recipient,Template,Patient,Status,Error,Tries,Sent at');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain('•••1234');
    expect(lines.find((line) => line.includes(',failed,'))).toContain(
      'l•••@example.test,patient-link,Lucía Benítez,failed,550: Mailbox unavailable,6,',
    );
    expect(text).not.toContain('lucia@example.test');
    const smsOnly = await call('POST', '/api/communications/exporttocsv', 'admin', { patientId: ids.patient, channel: 'sms' });
    expect(smsOnly.rawPayload.toString('utf8').trimEnd().split('\r\n')).toHaveLength(3);
  });

  it('counts the last 14 clinic days by status', async () => {
    const response = await call('GET', '/api/communications/counts', 'admin');
    expect(response.statusCode, response.body).toBe(200);
    const { days } = response.json<CommunicationCounts>();
    expect(days).toHaveLength(14);
    expect(days.at(-1)!.day).toBe(clinicMdy(new Date(), ZONE));
    expect(days[0]!.day).toBe(clinicMdy(clinicDayStartAfter(clinicTodayStart(new Date(), ZONE), -13, ZONE), ZONE));
    for (const day of days) expect(Object.keys(day.counts).sort()).toEqual([...outboxStatuses].sort());
    const failedDay = days.find((day) => day.day === clinicMdy(threeDaysAgo, ZONE))!;
    expect(failedDay.counts.failed).toBeGreaterThanOrEqual(1);
    // The chart holds exactly the clinic's messages of those days, whatever their status.
    const todayStart = clinicTodayStart(new Date(), ZONE);
    const [expected] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.instanceId, riverside),
          gte(outboxMessages.createdAt, clinicDayStartAfter(todayStart, -13, ZONE)),
          lt(outboxMessages.createdAt, clinicDayStartAfter(todayStart, 1, ZONE)),
        ),
      );
    const total = days.reduce((sum, day) => sum + Object.values(day.counts).reduce((a, b) => a + b, 0), 0);
    expect(total).toBe(expected!.count);
    expect(total).toBeGreaterThanOrEqual(3);
    // Lakeside's chart does not hold Riverside's messages.
    const lakeside = (await call('GET', '/api/communications/counts', 'admin2')).json<CommunicationCounts>();
    expect(lakeside.days.at(-1)!.counts.sent + lakeside.days.at(-1)!.counts.stored).toBe(0);
  });

  it('resends a failed message through a new job; a sent one answers 409', async () => {
    const sent = await call('POST', `/api/communications/${ids.sentSms}/resend`, 'admin');
    expect(sent.statusCode).toBe(409);
    expect(sent.json()).toMatchObject({ messageKey: 'messageNotResendable' });
    expect(await jobsFor(t, ids.sentSms)).toBe(0);
    // A stored text with no SMS provider cannot go anywhere.
    const noProvider = await call('POST', `/api/communications/${ids.storedSms}/resend`, 'admin');
    expect(noProvider.statusCode).toBe(409);
    expect(noProvider.json()).toMatchObject({ messageKey: 'noMessageProvider' });

    expect(await jobsFor(t, ids.failedEmail)).toBe(0);
    const response = await call('POST', `/api/communications/${ids.failedEmail}/resend`, 'admin');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<CommunicationMessage>()).toMatchObject({
      id: ids.failedEmail,
      status: 'queued',
      error: null,
      attempts: 0,
    });
    expect(await jobsFor(t, ids.failedEmail)).toBe(1);
    const mail = await waitFor(async () => received.find((message) => message.to === 'lucia@example.test'));
    expect(mail.raw).toContain('Please complete your forms before your visit.');
    const row = await waitFor(async () => {
      const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, ids.failedEmail));
      return message?.status === 'sent' ? message : undefined;
    });
    expect(row.attempts).toBe(1);
    // Now sent: a second resend is refused.
    expect((await call('POST', `/api/communications/${ids.failedEmail}/resend`, 'admin')).statusCode).toBe(409);
    expect((await call('POST', `/api/communications/not-an-id/resend`, 'admin')).statusCode).toBe(400);
  });
});

describe('contact support', () => {
  it('without SUPPORT_EMAIL the request is stored in the outbox for the System Manager', async () => {
    const response = await call('POST', '/api/support/contact', 'staff', {
      subject: 'Printer',
      message: 'The label printer jams.',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id, status } = response.json<{ id: string; status: string }>();
    expect(status).toBe('stored');
    const [row] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
    expect(row).toMatchObject({
      channel: 'email',
      template: 'support-request',
      status: 'stored',
      subject: '[Pathwell support] Printer',
      instanceId: riverside,
    });
    const body = openBody(t.config, row!);
    expect(body).toContain('From: staff@pathwell.demo (Staff)');
    expect(body).toContain('The label printer jams.');
    expect(await jobsFor(t, id)).toBe(0);
    // Still no support address: the dashboard cannot send it anywhere.
    const resend = await call('POST', `/api/communications/${id}/resend`, 'admin');
    expect(resend.statusCode).toBe(409);
    expect(resend.json()).toMatchObject({ messageKey: 'supportEmailNotSet' });
    expect(await jobsFor(t, id)).toBe(0);
  });

  it('answers 400 on an empty subject or message', async () => {
    const empty = await call('POST', '/api/support/contact', 'staff', { subject: '   ', message: 'Something' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ fields: { subject: 'required' } });
    const noMessage = await call('POST', '/api/support/contact', 'doctor', { subject: 'Hi', message: '' });
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json()).toMatchObject({ fields: { message: 'required' } });
  });

  describe('with SUPPORT_EMAIL and SMTP', () => {
    let withSupport: TestApp;
    beforeAll(async () => {
      withSupport = await createTestApp({ SMTP_URL: smtpUrl, SUPPORT_EMAIL: 'support@pathwell.test' });
    });
    afterAll(async () => {
      await withSupport?.close();
    });

    it('the request is emailed to support and marked sent', async () => {
      const doctor = await signIn(withSupport.app, 'doctor@pathwell.demo');
      const response = await withSupport.app.inject({
        method: 'POST',
        url: '/api/support/contact',
        headers: { ...doctor.headers, referer: 'http://localhost:5173/patients' },
        payload: { subject: 'Cannot sign a note', message: 'The sign button stays grey.' },
      });
      expect(response.statusCode, response.body).toBe(201);
      const { id, status } = response.json<{ id: string; status: string }>();
      expect(status).toBe('queued');
      const mail = await waitFor(async () => received.find((message) => message.to === 'support@pathwell.test'));
      expect(mail.raw).toContain('[Pathwell support] Cannot sign a note');
      expect(mail.raw).toContain('From: doctor@pathwell.demo (Doctor)');
      expect(mail.raw).toContain('The sign button stays grey.');
      const row = await waitFor(async () => {
        const [message] = await withSupport.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
        return message?.status === 'sent' ? message : undefined;
      });
      expect(row).toMatchObject({ template: 'support-request', recipient: 'support@pathwell.test', attempts: 1 });
    });
  });
});
