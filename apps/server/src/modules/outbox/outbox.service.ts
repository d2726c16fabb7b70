import { desc, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { outboxMessages } from '../../db/schema';

export interface Mailer {
  /** Delivers one stored message; resolves when the provider accepted it. */
  deliver(message: { to: string; subject: string; text: string }): Promise<void>;
  readonly configured: boolean;
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      deliver: () => Promise.resolve(),
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    configured: true,
    async deliver(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

export interface EmailInput {
  instanceId: string | null;
  to: string;
  subject: string;
  body: string;
  template: string;
}

/**
 * Records the email in the outbox first (inside the caller's transaction), then hands it to SMTP
 * when one is configured. With no provider the message stays in the outbox as 'stored'.
 */
export async function queueEmail(db: Database, input: EmailInput): Promise<string> {
  const [row] = await db
    .insert(outboxMessages)
    .values({
      instanceId: input.instanceId,
      channel: 'email',
      recipient: input.to,
      subject: input.subject,
      body: input.body,
      template: input.template,
    })
    .returning({ id: outboxMessages.id });
  return row!.id;
}

/**
 * Delivery runs after the request's transaction committed (the stored message is visible to another
 * connection then), so that response time never depends on the mail server.
 */
export function deliverLater(ctx: ServiceContext, log: FastifyBaseLogger, messageId: string): void {
  const { mailer } = ctx;
  if (!mailer.configured) return;
  ctx.afterCommit('outbox-delivery', (db) =>
    deliver(db, mailer, messageId).catch((error: unknown) => log.error({ err: error, messageId }, 'email delivery failed')),
  );
}

async function deliver(db: Database, mailer: Mailer, messageId: string): Promise<void> {
  const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, messageId));
  if (!message || message.status === 'sent') return;
  try {
    await mailer.deliver({ to: message.recipient, subject: message.subject ?? '', text: message.body });
    await db
      .update(outboxMessages)
      .set({ status: 'sent', sentAt: new Date(), error: null })
      .where(eq(outboxMessages.id, messageId));
  } catch (error) {
    await db
      .update(outboxMessages)
      .set({ status: 'failed', error: error instanceof Error ? error.message : String(error) })
      .where(eq(outboxMessages.id, messageId));
    throw error;
  }
}

export async function listOutbox(db: Database, page: { pageNumber: number; pageSize: number }) {
  const rows = await db
    .select()
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.createdAt))
    .limit(page.pageSize)
    .offset(page.pageNumber * page.pageSize);
  const [total] = await db.select({ count: sql<number>`count(*)::int` }).from(outboxMessages);
  return { totalRecords: total?.count ?? 0, rows };
}
