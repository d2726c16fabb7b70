import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { clinicDayStart, clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { PERIOPERATIVE_SEND_HOUR, type PatientMessage, type PerioperativeScheduleResult } from '@pathwell/contracts/messaging';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { outboxMessages, perioperativeTemplateDetails, perioperativeTemplates } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { maskRecipient, queueMessage } from '../outbox/outbox.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { mobileOf } from '../patient-contact/reach.service';

type DetailRow = typeof perioperativeTemplateDetails.$inferSelect;
type PatientRow = Awaited<ReturnType<typeof findVisiblePatient>>;

async function activeTemplate(db: Database, ctx: SignedInContext, templateId: string) {
  const [template] = await db
    .select()
    .from(perioperativeTemplates)
    .where(and(eq(perioperativeTemplates.instanceId, ctx.instanceId), eq(perioperativeTemplates.id, templateId)));
  if (!template || template.deletedAt) throw notFound('templateNotFound');
  // A template switched off is kept for its history, not used for new messages.
  if (!template.isActive) throw new AppError('CONFLICT', 'templateInactive');
  return template;
}

/** The text of a detail in the patient's language (Spanish when written, else English). */
function contentOf(detail: DetailRow, patient: PatientRow) {
  const body = patient.preferredLanguage === 'es' && detail.messageEs ? detail.messageEs : detail.messageEn;
  return { subject: detail.subject, body };
}

async function queueDetail(
  ctx: SignedInContext,
  db: Database,
  patient: PatientRow,
  templateId: string,
  detail: DetailRow,
  sendAfter: Date | null,
): Promise<string | null> {
  const to = detail.channel === 'email' ? patient.email : await mobileOf(db, patient.instanceId, patient.id);
  if (!to) return null;
  const { subject, body } = contentOf(detail, patient);
  const queued = await queueMessage(ctx, db, {
    instanceId: ctx.instanceId,
    channel: detail.channel,
    to,
    subject,
    body,
    template: 'perioperative',
    patientId: patient.id,
    perioperativeTemplateId: templateId,
    sendAfter,
  });
  return queued.id;
}

/**
 * Schedules every message of a template for a patient, each on its day relative to the procedure date
 * (negative before, positive after) at 9:00 clinic time. A day already past is skipped and reported;
 * each message then follows the outbox rules (opt-outs, channel flags, daytime texts).
 */
export async function schedulePerioperative(
  ctx: SignedInContext,
  input: { patientId: string; templateId: string; procedureDate: string },
): Promise<PerioperativeScheduleResult> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    const template = await activeTemplate(tx, ctx, input.templateId);
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const day = clinicClock(clinicDayStart(input.procedureDate, timeZone), timeZone);
    const details = await tx
      .select()
      .from(perioperativeTemplateDetails)
      .where(eq(perioperativeTemplateDetails.templateId, template.id))
      .orderBy(asc(perioperativeTemplateDetails.dayOffset));
    const created: string[] = [];
    const skipped: PerioperativeScheduleResult['skipped'] = [];
    for (const detail of details) {
      const sendAt = instantOfClinicTime(day.year, day.month, day.day + detail.dayOffset, timeZone, PERIOPERATIVE_SEND_HOUR);
      if (sendAt.getTime() < Date.now()) {
        skipped.push({ detailId: detail.id, reason: 'past' });
        continue;
      }
      const id = await queueDetail(ctx, tx, patient, template.id, detail, sendAt);
      if (id) created.push(id);
      else skipped.push({ detailId: detail.id, reason: 'noContact' });
    }
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Created', {
        type: 'patient',
        id: patient.id,
        description: `Scheduled ${created.length} messages of perioperative template "${template.name}" for patient ${patient.id} (procedure ${input.procedureDate})`,
      }),
    );
    return { messages: await messagesByIds(tx, created), skipped };
  });
}

/** Sends one message of a template to a patient now (texts still wait for daytime). */
export async function sendPerioperativeNow(
  ctx: SignedInContext,
  input: { patientId: string; templateId: string; detailId: string },
): Promise<PatientMessage> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    const template = await activeTemplate(tx, ctx, input.templateId);
    const [detail] = await tx
      .select()
      .from(perioperativeTemplateDetails)
      .where(and(eq(perioperativeTemplateDetails.templateId, template.id), eq(perioperativeTemplateDetails.id, input.detailId)));
    if (!detail) throw notFound('entryNotFound');
    const id = await queueDetail(ctx, tx, patient, template.id, detail, null);
    if (!id) {
      throw new AppError('VALIDATION', 'noContactForChannel', {
        params: { channel: detail.channel === 'sms' ? 'mobile number' : 'email' },
      });
    }
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Sent', {
        type: 'patient',
        id: patient.id,
        description: `Sent a message of perioperative template "${template.name}" to patient ${patient.id}`,
      }),
    );
    const [message] = await messagesByIds(tx, [id]);
    return message!;
  });
}

function toPatientMessage(row: typeof outboxMessages.$inferSelect): PatientMessage {
  return {
    id: row.id,
    channel: row.channel,
    recipient: maskRecipient(row.channel, row.recipient),
    template: row.template,
    subject: row.subject,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sendAfter: row.sendAfter?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

async function messagesByIds(db: Database, ids: string[]): Promise<PatientMessage[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(outboxMessages)
    .where(inArray(outboxMessages.id, ids))
    .orderBy(asc(outboxMessages.sendAfter));
  return rows.map(toPatientMessage);
}

/** The patient dashboard's messages: scheduled and sent, newest first (the last 100). */
export async function patientMessages(ctx: SignedInContext, patientId: string): Promise<PatientMessage[]> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const rows = await tx
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.instanceId, patient.instanceId), eq(outboxMessages.patientId, patient.id)))
      .orderBy(desc(outboxMessages.createdAt))
      .limit(100);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: 'Viewed the patient messages',
      }),
    );
    return rows.map(toPatientMessage);
  });
}
