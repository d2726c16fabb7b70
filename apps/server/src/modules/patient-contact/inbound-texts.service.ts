import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { phoneDigits, PatientPhoneType } from '@pathwell/contracts/patients';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { inboundTexts, patientPhoneNumbers, patients } from '../../db/schema';
import { recordActivity } from '../audit/audit.service';
import { decryptSetting, encryptSetting, isEncryptedText } from '../../lib/settings-crypto';
import { toE164 } from '../outbox/outbox.service';
import { readSettings } from '../settings/settings.service';
import { clinicDisplayName } from './clinic-name.service';
import { helpReply, keywordReply, recordSmsKeyword, smsKeywordOf, type SmsKeyword } from './sms-keywords.service';

/*
 * Texts a patient sends to the clinic's number (decision 0069). This module answers the keywords and
 * keeps every text; what a text means to a feature (a reply to a campaign) is that feature's business:
 * it subscribes with `onInboundText`, so patient contact never imports the features that react.
 */

interface InboundContext {
  db: Database;
  config: Pick<Config, 'appSecret'>;
  instanceId: string;
  ip: string | null;
}

interface InboundResult {
  /** What to answer the patient (HELP, the Spanish STOP), or null. */
  answer: string | null;
  inboundId: string | null;
  patientId: string | null;
  campaignId: string | null;
}

/** The fact a subscriber hears: one text stored, once per provider message. */
export interface InboundText {
  instanceId: string;
  inboundId: string;
  /** The sender in E.164. */
  phone: string;
  keyword: SmsKeyword | null;
  /** The patients a STOP or START was recorded for (every patient with that number). */
  keywordPatientIds: readonly string[];
  receivedAt: Date;
}

/** A subscriber's claim on a text: it answers a campaign (the patient it was sent to wins over the number's owner). */
export interface InboundClaim {
  patientId: string;
  campaignId: string;
  campaignRecipientId: string;
}

/** Runs in the webhook's transaction, so a failure stores nothing and Twilio retries. */
type InboundTextSubscriber = (db: Database, text: InboundText) => Promise<InboundClaim | null>;

const subscribers = new Map<string, InboundTextSubscriber>();

/** Subscribes a feature to inbound texts, by name (registering a name again replaces it: app.ts may run twice in a test process). */
export function onInboundText(name: string, subscriber: InboundTextSubscriber): void {
  subscribers.set(name, subscriber);
}

const inboundKey = (id: string) => `inbound:${id}`;

/** The readable text of a stored inbound text. */
export function openInbound(config: Pick<Config, 'appSecret'>, row: { id: string; instanceId: string; body: string }): string {
  if (!isEncryptedText(row.body)) return row.body;
  return decryptSetting(config.appSecret, row.instanceId, inboundKey(row.id), row.body);
}

/** The patient a number belongs to: a mobile number before another kind, then the oldest. */
async function ownerOf(db: Database, instanceId: string, phone: string): Promise<string | null> {
  const [owner] = await db
    .select({ patientId: patientPhoneNumbers.patientId })
    .from(patientPhoneNumbers)
    .innerJoin(
      patients,
      and(eq(patients.instanceId, patientPhoneNumbers.instanceId), eq(patients.id, patientPhoneNumbers.patientId)),
    )
    .where(
      and(
        eq(patientPhoneNumbers.instanceId, instanceId),
        eq(patientPhoneNumbers.digits, phoneDigits(phone)),
        isNull(patients.deletedAt),
      ),
    )
    .orderBy(sql`${patientPhoneNumbers.phoneType} = ${PatientPhoneType.MOBILE} desc`, patientPhoneNumbers.createdAt)
    .limit(1);
  return owner?.patientId ?? null;
}

/**
 * One text a patient sent to the clinic's number, as Twilio's inbound webhook and the demo's simulation
 * both run it: STOP / START / HELP (and PARAR, ALTO, AYUDA) change or explain the opt-out; every text is
 * kept (encrypted) and matched to the patient by the number's digits; then each subscriber hears it and
 * may claim it (outreach: the campaign that last texted the number).
 */
export async function handleInboundText(
  ctx: InboundContext,
  input: { from: string; body: string; providerMessageId: string | null },
  now = new Date(),
): Promise<InboundResult> {
  const { db, instanceId } = ctx;
  const settings = await readSettings(db, instanceId);
  const clinic = await clinicDisplayName(db, instanceId, settings);
  const phone = toE164(input.from);
  const keyword = smsKeywordOf(input.body);
  let answer: string | null = null;
  let keywordPatientIds: string[] = [];
  if (keyword?.kind === 'help') answer = helpReply(keyword.language, settings, clinic);
  else if (keyword) {
    keywordPatientIds = await recordSmsKeyword(db, instanceId, phone, keyword);
    for (const patientId of keywordPatientIds) {
      await recordActivity(db, {
        instanceId,
        actorUserId: null,
        actorEmail: null,
        area: 'Patient Profile',
        action: 'Updated',
        targetType: 'patient',
        targetId: patientId,
        description: `Patient ${patientId} texted ${keyword.word}: ${keyword.kind === 'stop' ? 'no more texts' : 'texts allowed again'}`,
        ip: ctx.ip,
      });
    }
    answer = keywordReply(keyword, clinic);
  }

  const id = randomUUID();
  let patientId = await ownerOf(db, instanceId, phone);
  const stored = await db
    .insert(inboundTexts)
    .values({
      id,
      instanceId,
      fromPhone: phone,
      body: encryptSetting(ctx.config.appSecret, instanceId, inboundKey(id), input.body),
      keyword: keyword?.word ?? null,
      providerMessageId: input.providerMessageId,
      patientId,
      receivedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: inboundTexts.id });
  // Twilio may post the same message again: the first delivery already did the rest.
  if (stored.length === 0) return { answer, inboundId: null, patientId, campaignId: null };

  let campaignId: string | null = null;
  const text: InboundText = { instanceId, inboundId: id, phone, keyword, keywordPatientIds, receivedAt: now };
  for (const subscriber of subscribers.values()) {
    const claim = await subscriber(db, text);
    if (!claim || campaignId) continue;
    patientId = claim.patientId;
    campaignId = claim.campaignId;
    await db
      .update(inboundTexts)
      .set({ patientId, campaignId, campaignRecipientId: claim.campaignRecipientId })
      .where(and(eq(inboundTexts.instanceId, instanceId), eq(inboundTexts.id, id)));
  }
  return { answer, inboundId: id, patientId, campaignId };
}
