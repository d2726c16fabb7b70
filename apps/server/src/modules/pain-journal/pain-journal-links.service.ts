import { and, eq, isNull } from 'drizzle-orm';
import type { FormLanguage } from '@pathwell/contracts/forms';
import { PAIN_JOURNAL_LINK_DAYS, type SentPainJournal } from '@pathwell/contracts/pain-journal';
import type { z } from 'zod';
import type { sendPainJournalSchema } from '@pathwell/contracts/pain-journal';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, patientLinks, patients } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZoneFrom, readSettings } from '../settings/settings.service';
import { messageDate } from '@pathwell/contracts/message-dates';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const DAY_MS = 86_400_000;

/** Staff, or a scheduled runner acting for one clinic with no one signed in (the audit entry then names no actor). */
type PainJournalContext = ServiceContext & { instanceId: string };

/** The second segment is the link's token: the credential. A guessable id (the appointment's) never opens anything. */
const painJournalPath = (patientId: string, token: string) => `/periodicvas/${patientId}/${token}`;

function journalMessage(
  language: FormLanguage,
  input: { firstName: string; clinicName: string; url: string; until: Date; timeZone: string },
) {
  const until = messageDate(input.until, input.timeZone, language);
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: ¿cómo está su dolor?`,
      emailBody:
        `Hola, ${input.firstName}:\n\n` +
        `${input.clinicName} le pide que anote su dolor de hoy, de 0 a 10, y si quiere una nota breve ` +
        `(enlace válido hasta el ${until}; puede usarlo una vez al día):\n${input.url}\n\n` +
        'Si no esperaba este mensaje, puede ignorarlo.',
      smsBody: `${input.clinicName}: anote su dolor de hoy (0 a 10): ${input.url} Responda PARAR para no recibir mensajes.`,
    };
  }
  return {
    subject: `${input.clinicName}: how is your pain?`,
    emailBody:
      `Hello ${input.firstName},\n\n` +
      `${input.clinicName} asks you to record your pain today, from 0 to 10, and a short note if you like ` +
      `(link good until ${until}; you can use it once a day):\n${input.url}\n\n` +
      'If you were not expecting this message, you can ignore it.',
    smsBody: `${input.clinicName}: record your pain today (0 to 10): ${input.url} Reply STOP to opt out.`,
  };
}

const linkAudit = (ctx: PainJournalContext, action: 'Created' | 'Sent', linkId: string, description: string) =>
  ctx.actor
    ? staffActivity(ctx as SignedInContext, 'Form Submission', action, { type: 'patient link', id: linkId, description })
    : {
        instanceId: ctx.instanceId,
        actorUserId: null,
        actorEmail: null,
        area: 'Form Submission' as const,
        action,
        targetType: 'patient link',
        targetId: linkId,
        description,
        ip: null,
      };

/**
 * A new pain journal link for a patient of the context's clinic (no visibility check: staff callers
 * check first; a pathway runner acts for the clinic). Valid PAIN_JOURNAL_LINK_DAYS days; it takes one
 * entry per clinic day for as long as it is open. The URL is on the configured public URL (decision 0064).
 */
export async function issuePainJournalLink(
  ctx: PainJournalContext,
  tx: Database,
  input: { patientId: string; appointmentId?: string | null; language?: FormLanguage },
): Promise<{ linkId: string; url: string; expiresAt: Date; language: FormLanguage }> {
  const [patient] = await tx
    .select({ id: patients.id, preferredLanguage: patients.preferredLanguage, accountClosedAt: patients.accountClosedAt })
    .from(patients)
    .where(and(eq(patients.id, input.patientId), eq(patients.instanceId, ctx.instanceId), isNull(patients.deletedAt)));
  if (!patient) throw notFound('patientNotFound');
  // A patient who closed their account asked for nothing more to be sent (decision 0036).
  if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
  if (input.appointmentId) {
    const [appointment] = await tx
      .select({ patientId: appointments.patientId })
      .from(appointments)
      .where(
        and(
          eq(appointments.id, input.appointmentId),
          eq(appointments.instanceId, ctx.instanceId),
          isNull(appointments.deletedAt),
        ),
      );
    if (!appointment || appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
  }
  const token = newToken();
  const language = input.language ?? patient.preferredLanguage;
  const [link] = await tx
    .insert(patientLinks)
    .values({
      instanceId: ctx.instanceId,
      patientId: patient.id,
      appointmentId: input.appointmentId ?? null,
      kind: 'painJournal',
      tokenHash: sha256(token),
      language,
      expiresAt: new Date(Date.now() + PAIN_JOURNAL_LINK_DAYS * DAY_MS),
      createdBy: ctx.actor?.userId ?? null,
    })
    .returning({ id: patientLinks.id, expiresAt: patientLinks.expiresAt });
  await recordActivity(tx, linkAudit(ctx, 'Created', link!.id, `Pain journal link for patient ${patient.id}`));
  return {
    linkId: link!.id,
    url: publicLink(ctx.config, painJournalPath(patient.id, token)),
    expiresAt: link!.expiresAt,
    language,
  };
}

/**
 * Staff send a pain journal link (email, text, or neither: the URL is answered for the clinic tablet).
 * A channel the clinic or the patient turned off, or an opted-out number, is reported as not sent.
 */
export async function sendPainJournalLink(
  ctx: SignedInContext,
  patientId: string,
  input: z.output<typeof sendPainJournalSchema>,
): Promise<SentPainJournal> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    if (input.appointmentId) {
      const appointment = await findVisibleAppointment(tx, ctx, input.appointmentId);
      if (appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
    }
    const channels = [...new Set(input.send)];
    const mobile = channels.includes('sms') ? await mobileOf(tx, ctx.instanceId, patient.id) : null;
    if (channels.includes('email') && !patient.email) throw fieldError('send', 'patientEmailMissing');
    if (channels.includes('sms') && !mobile) throw fieldError('send', 'phoneRequired');
    const link = await issuePainJournalLink(ctx, tx, {
      patientId: patient.id,
      appointmentId: input.appointmentId ?? null,
      language: input.language,
    });
    const settings = await readSettings(tx, ctx.instanceId);
    const reachable = (await reachableChannels(tx, settings, ctx.instanceId, patient, mobile, channels)).channels;
    const message = journalMessage(link.language, {
      firstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, ctx.instanceId),
      url: link.url,
      until: link.expiresAt,
      timeZone: clinicTimeZoneFrom(settings),
    });
    // A channel the clinic or the patient turned off is answered `notSent`, like one without an address.
    const sent = await queuePatientMessage(ctx, tx, {
      instanceId: ctx.instanceId,
      patientId: patient.id,
      channels: channels.filter((channel) => reachable.includes(channel)),
      to: { email: patient.email, mobile },
      template: 'pain-journal',
      message,
      onQueued: (channel) =>
        recordActivity(tx, linkAudit(ctx, 'Sent', link.linkId, `Pain journal link sent to patient ${patient.id} by ${channel}`)),
    });
    for (const channel of channels) if (!reachable.includes(channel)) sent.push({ channel, status: 'notSent', reason: null });
    return { linkId: link.linkId, url: link.url, expiresAt: link.expiresAt.toISOString(), sent };
  });
}
