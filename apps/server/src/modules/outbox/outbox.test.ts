import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/test-app';

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
});
