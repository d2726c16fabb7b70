import { and, eq, inArray } from 'drizzle-orm';
import type { OutboxStatus, SuppressionReason } from '@pathwell/contracts/messaging';
import type { Database } from '../../db/client';
import { withSystemAccess } from '../../db/tenancy';
import { outboxAttachments, outboxMessages } from '../../db/schema';
import { readSettings } from '../settings/settings.service';
import { isOptedOut, openAttachment, openBody, smsAccountFor, type MessagingDeps } from './outbox.service';
import { twilioSender, type MailAttachment, type SmsSender, type TwilioAccount } from './providers';

/** Statuses after which nothing is sent again (a retry or a resend finds them and stops). */
const settledStatuses: OutboxStatus[] = ['sent', 'delivered', 'undelivered', 'suppressed'];
interface DeliveryAttempt {
  retryCount: number;
  retryLimit: number;
}

type SmsSenderFactory = (account: TwilioAccount) => SmsSender;

/**
 * The delivery job: sends one stored message once. Before sending it claims the row (attempts + 1);
 * a message that already has the provider's id, or is settled, is never sent again. A failure before
 * the last try leaves it 'queued' with the reason (the queue retries with back-off); the last one
 * leaves it 'failed'.
 */
export async function deliverMessage(
  deps: Pick<MessagingDeps, 'config' | 'mailer'> & { root: Database; smsSender?: SmsSenderFactory },
  messageId: string,
  attempt: DeliveryAttempt,
): Promise<void> {
  const { root, config, mailer } = deps;
  const claimed = await withSystemAccess(root, 'outbox-delivery', async (db) => {
    const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, messageId)).for('update');
    if (!row || settledStatuses.includes(row.status) || row.providerMessageId) return null;
    const settings = row.instanceId ? await readSettings(db, row.instanceId) : null;
    if (row.channel === 'sms' && row.instanceId && (await isOptedOut(db, row.instanceId, row.recipient))) {
      await db
        .update(outboxMessages)
        .set({ status: 'suppressed', error: 'optedOut' satisfies SuppressionReason, updatedAt: new Date() })
        .where(eq(outboxMessages.id, messageId));
      return null;
    }
    const account = row.channel === 'sms' ? smsAccountFor(config, row.instanceId, settings) : null;
    if (row.channel === 'email' ? !mailer.configured : !account) {
      await db.update(outboxMessages).set({ status: 'stored', updatedAt: new Date() }).where(eq(outboxMessages.id, messageId));
      return null;
    }
    await db
      .update(outboxMessages)
      .set({ attempts: row.attempts + 1, status: 'queued', updatedAt: new Date() })
      .where(eq(outboxMessages.id, messageId));
    const files =
      row.channel === 'email' && row.instanceId
        ? await db
            .select()
            .from(outboxAttachments)
            .where(and(eq(outboxAttachments.instanceId, row.instanceId), eq(outboxAttachments.messageId, messageId)))
            .orderBy(outboxAttachments.createdAt, outboxAttachments.fileName, outboxAttachments.id)
        : [];
    return { row, account, files, from: settings?.defaultEmailSender?.trim() || undefined };
  });
  if (!claimed) return;
  const { row, account, files, from } = claimed;
  const body = openBody(config, row);
  try {
    const attachments: MailAttachment[] = files.map((file) => ({
      filename: file.fileName,
      contentType: file.contentType,
      content: openAttachment(config, file),
    }));
    const sent =
      row.channel === 'email'
        ? await mailer.deliver({
            from,
            to: row.recipient,
            subject: row.subject ?? '',
            text: body,
            ...(attachments.length ? { attachments } : {}),
          })
        : await (deps.smsSender ?? ((a) => twilioSender(a, config)))(account!).send({
            to: row.recipient,
            body,
            statusCallback: `${config.publicUrl}/api/sms/twilio/${row.instanceId}/status`,
          });
    await withSystemAccess(root, 'outbox-delivery', (db) =>
      db
        .update(outboxMessages)
        .set({
          status: 'sent',
          sentAt: new Date(),
          error: null,
          providerMessageId: sent.providerMessageId,
          updatedAt: new Date(),
        })
        .where(eq(outboxMessages.id, messageId)),
    );
  } catch (error) {
    const last = attempt.retryCount >= attempt.retryLimit;
    await withSystemAccess(root, 'outbox-delivery', (db) =>
      db
        .update(outboxMessages)
        .set({ status: last ? 'failed' : 'queued', error: describeFailure(error), updatedAt: new Date() })
        .where(eq(outboxMessages.id, messageId)),
    );
    throw error;
  }
}

function describeFailure(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, message, status } = error as { code?: unknown; message?: unknown; status?: unknown };
    const parts = [status, code].filter((part) => part !== undefined && part !== null).join(' ');
    const text = typeof message === 'string' ? message : String(error);
    return (parts ? `${parts}: ${text}` : text).slice(0, 500);
  }
  return String(error).slice(0, 500);
}

/** Twilio's MessageStatus values that change what staff see. */
const providerStatuses: Record<string, OutboxStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
};

/**
 * Statuses a report may move a message from. Twilio does not promise callbacks in order, so a late
 * 'sent' never undoes 'delivered'; delivered, undelivered and failed are final.
 */
const reportableFrom: Record<OutboxStatus, OutboxStatus[]> = {
  stored: [],
  scheduled: [],
  queued: [],
  suppressed: [],
  sent: ['queued'],
  delivered: ['queued', 'sent'],
  undelivered: ['queued', 'sent'],
  failed: ['queued', 'sent'],
};

/** A status callback: the provider's later word on a message it accepted. */
export async function recordProviderStatus(
  db: Database,
  instanceId: string,
  report: { providerMessageId: string; status: string; errorCode?: string | null },
): Promise<boolean> {
  const status = providerStatuses[report.status];
  if (!status) return false;
  const updated = await db
    .update(outboxMessages)
    .set({
      status,
      ...(status === 'delivered' || status === 'sent' ? {} : { error: `Twilio error ${report.errorCode ?? 'unknown'}` }),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(outboxMessages.instanceId, instanceId),
        eq(outboxMessages.channel, 'sms'),
        eq(outboxMessages.providerMessageId, report.providerMessageId),
        inArray(outboxMessages.status, reportableFrom[status]),
      ),
    )
    .returning({ id: outboxMessages.id });
  return updated.length > 0;
}
