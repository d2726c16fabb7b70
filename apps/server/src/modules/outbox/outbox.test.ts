import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/test-app';

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
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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

  it('a message the provider refuses is kept as failed with the reason, and the request still succeeds', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/forgetPassword', payload: { email: REFUSED } });
    expect(response.statusCode).toBe(200);
    const row = await waitFor(async () => {
      const [message] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, REFUSED));
      return message?.status === 'failed' ? message : undefined;
    });
    expect(row.error).toMatch(/550|Mailbox unavailable/);
    expect(row.sentAt).toBeNull();
    expect(received.some((message) => message.to === REFUSED)).toBe(false);
  });
});
