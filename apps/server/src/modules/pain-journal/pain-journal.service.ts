import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { FormLanguage } from '@pathwell/contracts/forms';
import {
  PAIN_JOURNAL_LAST_ENTRIES,
  PAIN_JOURNAL_LINK_DAYS,
  PAIN_SERIES_LIMIT,
  PAIN_TIMELINE_LIMIT,
  type PainInterval,
  type PainJournalDay,
  type PainJournalSaved,
  type PainJournalView,
  type PainSeries,
  type PainTimeline,
  type RecordedPain,
  type SentPainJournal,
} from '@pathwell/contracts/pain-journal';
import type { z } from 'zod';
import type { painJournalEntrySchema, recordNewPainSchema, sendPainJournalSchema } from '@pathwell/contracts/pain-journal';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, interventions, managedItems, painEntries, patientLinks, patients } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import { findLink, gone, linkStatusOf, patientActivity } from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone, clinicTimeZoneFrom, readSettings } from '../settings/settings.service';
import { messageDate } from '@pathwell/contracts/message-dates';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const DAY_MS = 86_400_000;
type LinkRow = typeof patientLinks.$inferSelect;

/** Staff, or a scheduled runner acting for one clinic with no one signed in (the audit entry then names no actor). */
export type PainJournalContext = ServiceContext & { instanceId: string };

/** The second segment is the link's token: the credential. A guessable id (the appointment's) never opens anything. */
export const painJournalPath = (patientId: string, token: string) => `/periodicvas/${patientId}/${token}`;

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

// ---- the patient's page (open) --------------------------------------------------------------------------

/** Open or closed; a journal link is never "completed": it takes an entry a day until it lapses. */
function journalStatus(link: LinkRow, now = new Date()): PainJournalView['status'] {
  const status = linkStatusOf(link, now);
  return status === 'revoked' ? 'revoked' : status === 'expired' || status === 'completed' ? 'expired' : 'active';
}

async function patientIsReachable(db: Database, link: LinkRow) {
  const [patient] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
  return Boolean(patient);
}

async function lastEntries(db: Database, link: LinkRow, timeZone: string): Promise<PainJournalDay[]> {
  const rows = await db
    .select({ recordedAt: painEntries.recordedAt, score: painEntries.score })
    .from(painEntries)
    .where(
      and(
        eq(painEntries.instanceId, link.instanceId),
        eq(painEntries.patientId, link.patientId),
        eq(painEntries.source, 'journal'),
      ),
    )
    .orderBy(desc(painEntries.recordedAt))
    .limit(PAIN_JOURNAL_LAST_ENTRIES);
  return rows.map((row) => ({ date: clinicIsoDate(row.recordedAt, timeZone), score: row.score }));
}

async function findJournalLink(db: Database, token: string, forUpdate = false) {
  const link = await findLink(db, token, forUpdate, ['painJournal']);
  // A patient removed since the link was sent: the link leads nowhere.
  if (!(await patientIsReachable(db, link))) throw notFound('linkNotFound');
  return link;
}

/** What the page shows before the patient answers: the clinic and, while the link is open, the last few days. */
export async function painJournalView(ctx: ServiceContext, token: string): Promise<PainJournalView> {
  const link = await findJournalLink(ctx.db, token);
  const status = journalStatus(link);
  const timeZone = await clinicTimeZone(ctx.db, link.instanceId);
  return {
    clinicName: await clinicDisplayName(ctx.db, link.instanceId),
    language: link.language ?? 'en',
    status,
    lastEntries: status === 'active' ? (await lastEntries(ctx.db, link, timeZone)).reverse() : [],
  };
}

/**
 * One journal entry. The idempotency key is the entry's id, so a retry stores nothing twice. A second
 * entry on the same clinic day replaces the first (the patient corrected a tap), so the chart holds one
 * point a day; the link row is locked so two taps at once cannot both insert.
 */
export async function recordJournalEntry(
  ctx: ServiceContext,
  token: string,
  input: z.output<typeof painJournalEntrySchema>,
): Promise<{ created: boolean; body: PainJournalSaved }> {
  return ctx.db.transaction(async (tx) => {
    const link = await findJournalLink(tx, token, true);
    const timeZone = clinicTimeZoneFrom(await readSettings(tx, link.instanceId));
    const answer = async (row: { recordedAt: Date; score: number }, created: boolean, replaced: boolean) => ({
      created,
      body: {
        date: clinicIsoDate(row.recordedAt, timeZone),
        score: row.score,
        replaced,
        lastEntries: (await lastEntries(tx, link, timeZone)).reverse(),
      },
    });
    const [earlier] = await tx
      .select({ linkId: painEntries.linkId, recordedAt: painEntries.recordedAt, score: painEntries.score })
      .from(painEntries)
      .where(and(eq(painEntries.id, input.idempotencyKey), eq(painEntries.instanceId, link.instanceId)));
    if (earlier) {
      if (earlier.linkId === link.id) return answer(earlier, false, false);
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    const status = journalStatus(link);
    if (status !== 'active') throw gone(status);

    const now = new Date();
    const today = clinicIsoDate(now, timeZone);
    const [sameDay] = await tx
      .select({ id: painEntries.id })
      .from(painEntries)
      .where(
        and(
          eq(painEntries.instanceId, link.instanceId),
          eq(painEntries.patientId, link.patientId),
          eq(painEntries.source, 'journal'),
          sql`(${painEntries.recordedAt} at time zone ${timeZone})::date = ${today}::date`,
        ),
      )
      .orderBy(desc(painEntries.recordedAt))
      .limit(1);
    let entryId: string;
    if (sameDay) {
      entryId = sameDay.id;
      await tx
        .update(painEntries)
        .set({ score: input.score, note: input.note, recordedAt: now, linkId: link.id, appointmentId: link.appointmentId })
        .where(eq(painEntries.id, sameDay.id));
    } else {
      const [inserted] = await tx
        .insert(painEntries)
        .values({
          id: input.idempotencyKey,
          instanceId: link.instanceId,
          patientId: link.patientId,
          appointmentId: link.appointmentId,
          source: 'journal',
          score: input.score,
          note: input.note,
          linkId: link.id,
          recordedAt: now,
        })
        .onConflictDoNothing({ target: painEntries.id })
        .returning({ id: painEntries.id });
      // The id is taken by a row this clinic cannot see: the key was used elsewhere.
      if (!inserted) throw new AppError('CONFLICT', 'submissionKeyUsed');
      entryId = inserted.id;
    }
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Form Submission', sameDay ? 'Updated' : 'Created', {
        type: 'pain entry',
        id: entryId,
        description: `Patient ${link.patientId} recorded pain ${input.score}/10 in the pain journal${sameDay ? ' (replacing today’s entry)' : ''}`,
      }),
    );
    return answer({ recordedAt: now, score: input.score }, !sameDay, Boolean(sameDay));
  });
}

// ---- staff reads -----------------------------------------------------------------------------------------

const visitStatuses = [AppointmentStatus.Completed, AppointmentStatus.Checking_In];

/**
 * Journal entries and visit scores per day, week (ISO, from Monday) or month of the clinic's calendar,
 * grouped in SQL with date_trunc on the clinic's wall clock.
 */
export async function painSeries(ctx: SignedInContext, patientId: string, interval: PainInterval): Promise<PainSeries> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const result = (await tx.execute(sql`
      with points as (
        select ${painEntries.recordedAt} as at, ${painEntries.score}::int as score
          from ${painEntries}
         where ${painEntries.instanceId} = ${ctx.instanceId} and ${painEntries.patientId} = ${patient.id}
           and ${painEntries.source} = 'journal'
        union all
        select ${appointments.startsAt}, ${appointments.painScore}::int
          from ${appointments}
         where ${appointments.instanceId} = ${ctx.instanceId} and ${appointments.patientId} = ${patient.id}
           and ${appointments.deletedAt} is null and ${appointments.painScore} is not null
           and ${appointments.status} in (${sql.join(
             visitStatuses.map((status) => sql`${status}`),
             sql`, `,
           )})
      )
      select to_char(date_trunc(${interval}, at at time zone ${timeZone}), 'YYYY-MM-DD') as period_start,
             round(avg(score), 1)::text as average, min(score)::int as min, max(score)::int as max, count(*)::int as count
        from points
       group by 1
       order by 1 desc
       limit ${PAIN_SERIES_LIMIT}`)) as unknown as {
      rows: { period_start: string; average: string; min: number; max: number; count: number }[];
    };
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: `Viewed the pain series (${interval}) of patient ${patient.id}`,
      }),
    );
    return {
      interval,
      timeZone,
      series: result.rows.reverse().map((row) => ({
        periodStart: row.period_start,
        average: Number(row.average),
        min: Number(row.min),
        max: Number(row.max),
        count: Number(row.count),
      })),
    };
  });
}

/** The pain chart's points: visits, journal entries (with the patient's notes) and procedures performed. */
export async function painTimeline(ctx: SignedInContext, patientId: string): Promise<PainTimeline> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const visits = await tx
      .select({ id: appointments.id, startsAt: appointments.startsAt, score: appointments.painScore })
      .from(appointments)
      .where(
        and(
          eq(appointments.instanceId, ctx.instanceId),
          eq(appointments.patientId, patient.id),
          isNull(appointments.deletedAt),
          inArray(appointments.status, visitStatuses),
          sql`${appointments.painScore} is not null`,
        ),
      )
      .orderBy(desc(appointments.startsAt))
      .limit(PAIN_TIMELINE_LIMIT);
    const journal = await tx
      .select({ id: painEntries.id, recordedAt: painEntries.recordedAt, score: painEntries.score, note: painEntries.note })
      .from(painEntries)
      .where(
        and(eq(painEntries.instanceId, ctx.instanceId), eq(painEntries.patientId, patient.id), eq(painEntries.source, 'journal')),
      )
      .orderBy(desc(painEntries.recordedAt))
      .limit(PAIN_TIMELINE_LIMIT);
    const procedures = await tx
      .select({
        id: interventions.id,
        performedOn: interventions.performedOn,
        kind: interventions.kind,
        itemName: managedItems.name,
      })
      .from(interventions)
      .leftJoin(
        managedItems,
        and(eq(managedItems.id, interventions.itemId), eq(managedItems.instanceId, interventions.instanceId)),
      )
      .where(
        and(
          eq(interventions.instanceId, ctx.instanceId),
          eq(interventions.patientId, patient.id),
          isNull(interventions.deletedAt),
        ),
      )
      .orderBy(desc(interventions.performedOn), asc(interventions.createdAt))
      .limit(PAIN_TIMELINE_LIMIT);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: `Viewed the pain timeline of patient ${patient.id}`,
      }),
    );
    return {
      visits: visits.reverse().map((row) => ({ appointmentId: row.id, startsAt: row.startsAt.toISOString(), score: row.score! })),
      journal: journal
        .reverse()
        .map((row) => ({ id: row.id, recordedAt: row.recordedAt.toISOString(), score: row.score, note: row.note })),
      procedures: procedures.reverse().map((row) => ({ ...row, itemName: row.itemName ?? null })),
    };
  });
}

// ---- a new complaint at a visit --------------------------------------------------------------------------

/**
 * Section 7 "PATCH recordnewpain/{id}": a 'complaint' entry for the appointment, and the appointment's
 * own score (and body locations, when given) set to it, so the visit list, filters and chart agree.
 */
export async function recordNewPain(
  ctx: SignedInContext,
  appointmentId: string,
  input: z.output<typeof recordNewPainSchema>,
): Promise<RecordedPain> {
  return ctx.db.transaction(async (tx) => {
    const appointment = await findVisibleAppointment(tx, ctx, appointmentId);
    const locations = input.bodyLocationIds ? [...new Set(input.bodyLocationIds)] : undefined;
    if (locations?.length) {
      const items = await tx
        .select({ id: managedItems.id })
        .from(managedItems)
        .where(
          and(
            inArray(managedItems.id, locations),
            eq(managedItems.instanceId, ctx.instanceId),
            eq(managedItems.listType, 'bodylocations'),
            isNull(managedItems.deletedAt),
          ),
        );
      if (items.length !== locations.length) throw fieldError('bodyLocationIds', 'invalid', 'bodyLocationNotInClinic');
    }
    const [entry] = await tx
      .insert(painEntries)
      .values({
        instanceId: ctx.instanceId,
        patientId: appointment.patientId,
        appointmentId: appointment.id,
        source: 'complaint',
        score: input.score,
        note: input.note,
        bodyLocationIds: locations ?? appointment.bodyLocationIds,
        recordedBy: ctx.actor.userId,
      })
      .returning();
    await tx
      .update(appointments)
      .set({ painScore: input.score, ...(locations ? { bodyLocationIds: locations } : {}), updatedAt: new Date() })
      .where(and(eq(appointments.id, appointment.id), eq(appointments.instanceId, ctx.instanceId)));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Appointments', 'Updated', {
        type: 'appointment',
        id: appointment.id,
        description: `Recorded a new pain complaint (${input.score}/10) for patient ${appointment.patientId}`,
      }),
    );
    return {
      id: entry!.id,
      appointmentId: appointment.id,
      score: entry!.score,
      bodyLocationIds: entry!.bodyLocationIds,
      note: entry!.note,
      recordedAt: entry!.recordedAt.toISOString(),
    };
  });
}
