import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { phoneDigits } from '@pathwell/contracts/patients';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { outboxAttachments, outboxMessages, patients, smsOptOuts } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import { jobQueues } from '../../jobs/job-queue';
import { decryptFile, decryptSetting, encryptFile, encryptSetting, isEncryptedText } from '../../lib/settings-crypto';
import { clinicTimeZoneFrom, isOn, numberSetting, readSettings, type SettingsMap } from '../settings/settings.service';
import { underDailyCap } from './daily-cap.service';
import type { Mailer, TwilioAccount } from './providers';

export { createMailer, type Mailer } from './providers';

import {
  optionalMessageTemplates,
  type HeldReason,
  type OutboxChannel,
  type OutboxStatus,
  type SuppressionReason,
} from '@pathwell/contracts/messaging';
import { listTotal } from '../../lib/list-total';

/** Texts that are not urgent wait for daytime in the clinic (issue #11 §2): 8:00 to 21:00. */
const TEXT_DAY_STARTS_HOUR = 8;
const TEXT_DAY_ENDS_HOUR = 21;

export interface MessagingDeps {
  config: Config;
  mailer: Mailer;
  jobs: JobQueue;
}

export interface MessageInput {
  instanceId: string | null;
  channel: OutboxChannel;
  to: string;
  subject?: string | null;
  body: string;
  template: string;
  patientId?: string | null;
  perioperativeTemplateId?: string | null;
  /** The earliest time it may go out (a scheduled message); a text outside daytime waits further. */
  sendAfter?: Date | null;
  /** A text that may go out at night (a sign-in code). */
  urgent?: boolean;
  batchId?: string | null;
  /** Kept in the outbox for staff to read, never handed to a provider (support requests without SUPPORT_EMAIL). */
  storeOnly?: boolean;
  /** Files sent with an email of a clinic (a support request's screenshot); stored encrypted beside the body. */
  attachments?: OutboxAttachmentInput[];
  /**
   * Sent by a sweep or a campaign rather than by a person for this patient: counted against the clinic's
   * daily cap per patient and held to the next clinic morning over it (decision 0066). Care messages a
   * person or the patient asked for (sign-in codes, confirmations, links sent by hand) never set it.
   */
  automatic?: boolean;
  /** The sender's clock (a sweep run at a given time); the real time when absent. */
  now?: Date;
}

export interface OutboxAttachmentInput {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** E.164 for the numbers we text: ten digits are a US number, anything else keeps its own country code. */
export function toE164(phone: string): string {
  const digits = phoneDigits(phone);
  if (digits.length === 10) return `+1${digits}`;
  return `+${phone.replace(/\D/g, '')}`;
}

export function maskRecipient(channel: OutboxChannel, recipient: string): string {
  if (channel === 'sms') return `•••${recipient.replace(/\D/g, '').slice(-4)}`;
  const [local = '', domain = ''] = recipient.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/** The first instant at or after `from` that is inside the clinic's daytime hours. */
export function nextDaytime(from: Date, timeZone: string): Date {
  const clock = clinicClock(from, timeZone);
  if (clock.hour >= TEXT_DAY_STARTS_HOUR && clock.hour < TEXT_DAY_ENDS_HOUR) return from;
  const day = clock.hour < TEXT_DAY_STARTS_HOUR ? clock.day : clock.day + 1;
  return instantOfClinicTime(clock.year, clock.month, day, timeZone, TEXT_DAY_STARTS_HOUR, 0);
}

const bodyKey = (id: string) => `outbox:${id}`;
const bodyScope = (instanceId: string | null) => instanceId ?? 'system';

function sealBody(config: Pick<Config, 'appSecret'>, row: { id: string; instanceId: string | null }, body: string) {
  return encryptSetting(config.appSecret, bodyScope(row.instanceId), bodyKey(row.id), body);
}

/** The readable body of a stored message (rows from before encryption are read as they are). */
export function openBody(config: Pick<Config, 'appSecret'>, row: { id: string; instanceId: string | null; body: string }) {
  if (!isEncryptedText(row.body)) return row.body;
  return decryptSetting(config.appSecret, bodyScope(row.instanceId), bodyKey(row.id), row.body);
}

const attachmentKey = (row: { id: string; messageId: string }) => `outbox:${row.messageId}:attachment:${row.id}`;

/** An attachment's bytes encrypted like the body, bound to its message and its own id (decision 0037). */
function sealAttachment(
  config: Pick<Config, 'appSecret'>,
  row: { id: string; messageId: string; instanceId: string | null },
  content: Buffer,
): Buffer {
  return encryptFile(config.appSecret, bodyScope(row.instanceId), attachmentKey(row), content);
}

export function openAttachment(
  config: Pick<Config, 'appSecret'>,
  row: { id: string; messageId: string; instanceId: string | null; content: Buffer },
): Buffer {
  return decryptFile(config.appSecret, bodyScope(row.instanceId), attachmentKey(row), row.content);
}

/** The clinic's Twilio account (instance settings), else the server's TWILIO_* one; null: texts stay stored. */
export function smsAccountFor(config: Config, instanceId: string | null, settings: SettingsMap | null): TwilioAccount | null {
  const fromNumber = settings?.defaultSmsNumber?.trim() || config.twilio?.fromNumber;
  if (settings && instanceId && isOn(settings, 'useTwilio') && settings.twilioAccountSid && settings.twilioAuthToken) {
    const authToken = decryptSetting(config.appSecret, instanceId, 'twilioAuthToken', settings.twilioAuthToken);
    return fromNumber ? { accountSid: settings.twilioAccountSid, authToken, fromNumber: toE164(fromNumber) } : null;
  }
  if (config.twilio && fromNumber) return { ...config.twilio, fromNumber: toE164(fromNumber) };
  return null;
}

export function providerConfigured(
  deps: Pick<MessagingDeps, 'config' | 'mailer'>,
  channel: OutboxChannel,
  instanceId: string | null,
  settings: SettingsMap | null,
) {
  return channel === 'email' ? deps.mailer.configured : smsAccountFor(deps.config, instanceId, settings) !== null;
}

export async function isOptedOut(db: Database, instanceId: string, phone: string): Promise<boolean> {
  const [row] = await db
    .select({ optedOut: smsOptOuts.optedOut })
    .from(smsOptOuts)
    .where(and(eq(smsOptOuts.instanceId, instanceId), eq(smsOptOuts.phone, toE164(phone))));
  return row?.optedOut ?? false;
}

async function suppressionFor(
  db: Database,
  input: MessageInput,
  settings: SettingsMap | null,
): Promise<SuppressionReason | null> {
  if (!input.instanceId || !input.patientId || !settings) return null;
  const [patient] = await db
    .select({
      enableEmail: patients.enableEmail,
      enableText: patients.enableText,
      outreachEmail: patients.outreachEmail,
      outreachText: patients.outreachText,
    })
    .from(patients)
    .where(and(eq(patients.instanceId, input.instanceId), eq(patients.id, input.patientId)));
  const optional = optionalMessageTemplates.includes(input.template);
  if (input.channel === 'email') {
    if (!isOn(settings, 'enableEmail')) return 'clinicEmailOff';
    if (patient && !patient.enableEmail) return 'patientEmailOff';
    if (patient && optional && !patient.outreachEmail) return 'patientOptionalOff';
    return null;
  }
  if (!isOn(settings, 'enableSms')) return 'clinicSmsOff';
  if (patient && !patient.enableText) return 'patientTextOff';
  if (patient && optional && !patient.outreachText) return 'patientOptionalOff';
  if (await isOptedOut(db, input.instanceId, input.to)) return 'optedOut';
  return null;
}

/**
 * Records an outbound message in the caller's transaction and, when a provider is configured, a
 * delivery job in that same transaction: a change that rolls back sends nothing, and a committed one
 * is delivered even across a restart. With no provider the message stays 'stored'; a message the
 * patient or clinic does not want is kept as 'suppressed' with the reason, never silently dropped.
 */
export async function queueMessage(
  deps: MessagingDeps,
  db: Database,
  input: MessageInput,
): Promise<{ id: string; status: OutboxStatus; suppressed: SuppressionReason | null }> {
  const id = randomUUID();
  const to = input.channel === 'sms' ? toE164(input.to) : input.to.trim();
  const settings = input.instanceId ? await readSettings(db, input.instanceId) : null;
  const suppressed = await suppressionFor(db, { ...input, to }, settings);
  const now = input.now ?? new Date();
  let sendAfter = input.sendAfter ?? null;
  if (input.channel === 'sms' && !input.urgent && settings) {
    sendAfter = nextDaytime(sendAfter ?? now, clinicTimeZoneFrom(settings));
  }
  let held: HeldReason | null = null;
  const cap = settings ? numberSetting(settings, 'maxPatientMessagesPerDay') : null;
  if (input.automatic && !suppressed && input.instanceId && input.patientId && settings && cap !== null && cap >= 1) {
    const at = sendAfter ?? now;
    const allowed = await underDailyCap(
      db,
      { instanceId: input.instanceId, patientId: input.patientId, channel: input.channel },
      { at, cap, timeZone: clinicTimeZoneFrom(settings), morningHour: TEXT_DAY_STARTS_HOUR },
    );
    if (allowed.getTime() !== at.getTime()) {
      sendAfter = allowed;
      held = 'heldDailyCap';
    }
  }
  const later = sendAfter !== null && sendAfter.getTime() > Date.now() + 1000;
  const canSend = !input.storeOnly && providerConfigured(deps, input.channel, input.instanceId, settings);
  const status: OutboxStatus = suppressed ? 'suppressed' : !canSend ? 'stored' : later ? 'scheduled' : 'queued';
  await db.insert(outboxMessages).values({
    id,
    instanceId: input.instanceId,
    channel: input.channel,
    recipient: to,
    subject: input.subject ?? null,
    body: sealBody(deps.config, { id, instanceId: input.instanceId }, input.body),
    template: input.template,
    status,
    error: suppressed ?? held,
    patientId: input.patientId ?? null,
    perioperativeTemplateId: input.perioperativeTemplateId ?? null,
    sendAfter,
    urgent: input.urgent ?? false,
    batchId: input.batchId ?? null,
    automatic: input.automatic ?? false,
    // A sweep's clock, so the day a message counts on is the sweep's day.
    ...(input.now ? { createdAt: input.now } : {}),
  });
  if (input.attachments?.length) {
    // Programming errors, not user input: texts carry no files, and a file always belongs to a clinic.
    if (input.channel !== 'email') throw new Error('Only emails carry attachments');
    if (!input.instanceId) throw new Error("An attachment belongs to a clinic's message");
    const instanceId = input.instanceId;
    await db.insert(outboxAttachments).values(
      input.attachments.map((attachment) => {
        const attachmentId = randomUUID();
        return {
          id: attachmentId,
          instanceId,
          messageId: id,
          fileName: attachment.fileName,
          contentType: attachment.contentType,
          size: attachment.content.length,
          content: sealAttachment(deps.config, { id: attachmentId, messageId: id, instanceId }, attachment.content),
        };
      }),
    );
  }
  if (status === 'queued' || status === 'scheduled') {
    await deps.jobs.enqueue(db, jobQueues.deliverMessage, { messageId: id }, later ? { startAfter: sendAfter! } : {});
  }
  return { id, status, suppressed };
}

/** Puts a failed, undelivered or stored message back on the queue (communication dashboard: resend). */
export async function requeueMessage(deps: MessagingDeps, db: Database, row: typeof outboxMessages.$inferSelect) {
  await db
    .update(outboxMessages)
    .set({ status: 'queued', error: null, providerMessageId: null, attempts: 0, sendAfter: null, updatedAt: new Date() })
    .where(eq(outboxMessages.id, row.id));
  await deps.jobs.enqueue(db, jobQueues.deliverMessage, { messageId: row.id });
}

/** The demo outbox page (System Manager, demo mode only): every clinic's messages with readable bodies. */
export async function listOutbox(
  db: Database,
  config: Pick<Config, 'appSecret'>,
  page: { pageNumber: number; pageSize: number },
) {
  const rows = await db
    .select()
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.createdAt))
    .limit(page.pageSize)
    .offset(page.pageNumber * page.pageSize);
  const { totalRecords } = await listTotal(db, db.select({ id: outboxMessages.id }).from(outboxMessages), {
    ...page,
    rowsOnPage: rows.length,
    exact: true,
  });
  return { totalRecords, rows: rows.map((row) => ({ ...row, body: openBody(config, row) })) };
}

/** A message to a patient in its two forms: an email (subject and body) and a text. */
interface PatientMessage {
  subject: string;
  emailBody: string;
  smsBody: string;
}

/**
 * Queues one patient message on each channel asked for: the email form to the email address, the text
 * form to the mobile. A channel without an address is answered `notSent` and queues nothing;
 * `onQueued` runs after each queued message (the caller's audit entry).
 */
/**
 * What became of one channel of a patient message, with the reason when it did not go (a suppression,
 * or no address), so the screen where staff sent it can say why in words (issue #24 §5).
 */
type PatientMessageResult = {
  channel: 'email' | 'sms';
  status: OutboxStatus | 'notSent';
  reason: SuppressionReason | 'noAddress' | null;
};

export async function queuePatientMessage(
  deps: MessagingDeps,
  db: Database,
  input: {
    instanceId: string;
    patientId: string;
    channels: readonly ('email' | 'sms')[];
    to: { email: string | null; mobile: string | null };
    template: string;
    message: PatientMessage;
    batchId?: string;
    onQueued?: (channel: 'email' | 'sms') => Promise<void>;
    /** See MessageInput: a sweep's message, under the daily cap per patient. */
    automatic?: boolean;
    now?: Date;
  },
): Promise<PatientMessageResult[]> {
  const sent: PatientMessageResult[] = [];
  for (const channel of input.channels) {
    const to = channel === 'email' ? input.to.email : input.to.mobile;
    if (!to) {
      sent.push({ channel, status: 'notSent', reason: 'noAddress' });
      continue;
    }
    const queued = await queueMessage(deps, db, {
      instanceId: input.instanceId,
      channel,
      to,
      template: input.template,
      patientId: input.patientId,
      subject: channel === 'email' ? input.message.subject : undefined,
      body: channel === 'email' ? input.message.emailBody : input.message.smsBody,
      batchId: input.batchId,
      automatic: input.automatic,
      now: input.now,
    });
    sent.push({ channel, status: queued.status, reason: queued.suppressed });
    await input.onQueued?.(channel);
  }
  return sent;
}
