import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { clinicDayEnd, clinicDayStart, clinicMdy, clinicTime12, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import { messageDateTime } from '@pathwell/contracts/message-dates';
import type { FormLanguage } from '@pathwell/contracts/forms';
import {
  INTAKE_MAX_DAYS,
  INTAKE_OPEN_HOURS_AFTER_START,
  type AppointmentDashboard,
  type Consent,
  type CreatedIntake,
  type IntakeWorkStep,
  type StaffIntake,
} from '@pathwell/contracts/intake';
import type { z } from 'zod';
import type { bulkIntakeCandidateSchema, BulkIntakeProgress, createIntakeSchema } from '@pathwell/contracts/intake';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { doctorScope, type ServiceContext, type SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import {
  appointments,
  customForms,
  formResponses,
  intakeEntries,
  outboxMessages,
  patientConsents,
  patientLinks,
  patients,
  type IntakePlan,
} from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { appointmentScope, findVisibleAppointment, selectAppointments } from '../appointments/appointments.service';
import { findingsOfAppointmentRows } from '../critical-findings/critical-findings.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { appointmentFormCodes } from '../form-responses/form-responses.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patients.service';
import { clinicTimeZoneFrom, isOn, readSettings, type SettingsMap } from '../settings/settings.service';
import { renderConsentPdf } from './consent-pdf';
import { intakeForms, previousBodyMap, savedAnswers, stepStates } from './intake.service';
import { intakeMessage } from './intake.messages';
import { cardPhotosOf } from './insurance-cards.service';
import { publicLink } from '../../lib/public-url';
import { formsWithoutWording, requireFormsWorded } from '../form-responses/wording-availability';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { mobileOf, reachableChannels } from '../patient-contact/reach.service';

type CreateInput = z.output<typeof createIntakeSchema>;
type PatientRow = Awaited<ReturnType<typeof findVisiblePatient>>;
type AppointmentRow = Awaited<ReturnType<typeof findVisibleAppointment>>;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Staff, or the intake sweep acting for a clinic with no one signed in (the entry then names no actor). */
export type IntakeContext = ServiceContext & { instanceId: string };

const activity = (ctx: IntakeContext, action: 'Created' | 'Sent' | 'Viewed', id: string, description: string) =>
  ctx.actor
    ? staffActivity(ctx as SignedInContext, 'Intake Information', action, { type: 'intake', id, description })
    : {
        instanceId: ctx.instanceId,
        actorUserId: null,
        actorEmail: null,
        area: 'Intake Information' as const,
        action,
        targetType: 'intake',
        targetId: id,
        description,
        ip: null,
      };

/** A signed new-patient agreement that has not lapsed (consentExpiration). */
async function hasCurrentAgreement(db: Database, instanceId: string, patientId: string, now = new Date()) {
  const [row] = await db
    .select({ id: patientConsents.id })
    .from(patientConsents)
    .where(
      and(
        eq(patientConsents.instanceId, instanceId),
        eq(patientConsents.patientId, patientId),
        eq(patientConsents.kind, 'newPatientAgreement'),
        sql`(${patientConsents.expiresAt} is null or ${patientConsents.expiresAt} > ${now.toISOString()})`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

async function requireCustomForms(db: Database, instanceId: string, field: string, ids: string[]) {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: customForms.id })
    .from(customForms)
    .where(and(eq(customForms.instanceId, instanceId), inArray(customForms.id, ids), isNull(customForms.archivedAt)));
  if (rows.length !== new Set(ids).size) throw fieldError(field, 'invalid', 'customFormNotFound');
}

/**
 * Which steps an appointment needs (decision 0032): paperwork when the patient has no current signed
 * agreement, or at every new-patient visit with `showIntakeFormForNewPatients`; health history, pain
 * scores and body map always; check-in questions and PROs when there are forms for them; payment with
 * `enablePaymentCollection`. Staff may narrow the list; a step with nothing to show is dropped.
 */
export async function intakePlanFor(
  db: Database,
  settings: SettingsMap,
  appointment: Pick<AppointmentRow, 'id' | 'reason'>,
  patient: { id: string; instanceId: string },
  input: Pick<CreateInput, 'steps' | 'formCodes' | 'historyFormIds' | 'checkInFormIds'>,
): Promise<IntakePlan> {
  // Forms staff named must be ones the clinic can give (400 otherwise); from the visit's default
  // assignment, a form whose wording is not loaded is left out rather than refusing the whole intake.
  if (input.formCodes) await requireFormsWorded(db, patient.instanceId, input.formCodes, (index) => `formCodes.${index}`);
  const assigned = input.formCodes ?? (await appointmentFormCodes(db, patient.instanceId, appointment.id)).formCodes;
  const unworded = new Set(await formsWithoutWording(db, patient.instanceId, assigned));
  const formCodes = assigned.filter((code) => !unworded.has(code));
  const historyFormIds = input.historyFormIds ?? [];
  const checkInFormIds = input.checkInFormIds ?? [];
  await requireCustomForms(db, patient.instanceId, 'historyFormIds', historyFormIds);
  await requireCustomForms(db, patient.instanceId, 'checkInFormIds', checkInFormIds);
  const paperwork =
    !(await hasCurrentAgreement(db, patient.instanceId, patient.id)) ||
    (isOn(settings, 'showIntakeFormForNewPatients') && appointment.reason === 'new_patient');
  const wanted: IntakeWorkStep[] =
    input.steps && input.steps.length > 0 ? input.steps : [...(paperwork ? [1 as const] : []), 2, 3, 4, 5, 6, 7];
  const possible = (step: IntakeWorkStep) =>
    (step !== 3 || checkInFormIds.length > 0) &&
    (step !== 6 || formCodes.length > 0) &&
    (step !== 7 || isOn(settings, 'enablePaymentCollection'));
  const steps = [...new Set(wanted)].filter(possible).sort((a, b) => a - b);
  if (steps.length === 0) throw fieldError('steps', 'required');
  return { steps, formCodes: [...new Set(formCodes)], historyFormIds, checkInFormIds };
}

export function intakeExpiry(startsAt: Date, now = new Date()): Date {
  const afterVisit = startsAt.getTime() + INTAKE_OPEN_HOURS_AFTER_START * HOUR_MS;
  return new Date(Math.min(Math.max(afterVisit, now.getTime() + DAY_MS), now.getTime() + INTAKE_MAX_DAYS * DAY_MS));
}

const intakePath = (token: string, appointmentId: string) => `/patients/intake/${token}/${appointmentId}`;

export interface SendTarget {
  email: string | null;
  mobile: string | null;
}

/** Makes the link and queues its messages in the caller's transaction. */
export async function makeIntake(
  ctx: IntakeContext,
  tx: Database,
  patient: PatientRow,
  appointment: AppointmentRow,
  input: CreateInput,
  target: SendTarget,
  batchId: string | null,
): Promise<CreatedIntake> {
  const settings = await readSettings(tx, ctx.instanceId);
  const plan = await intakePlanFor(tx, settings, appointment, patient, input);
  if (input.amountDueCents !== undefined) {
    await tx
      .update(appointments)
      .set({ amountDueCents: input.amountDueCents, updatedAt: new Date() })
      .where(and(eq(appointments.id, appointment.id), eq(appointments.instanceId, ctx.instanceId)));
  }
  // One intake per appointment: a new link replaces an unfinished earlier one (its answers stay on it).
  await tx
    .update(patientLinks)
    .set({ revokedAt: new Date(), accessTokenHash: null, accessExpiresAt: null })
    .where(
      and(
        eq(patientLinks.instanceId, ctx.instanceId),
        eq(patientLinks.appointmentId, appointment.id),
        eq(patientLinks.kind, 'intake'),
        isNull(patientLinks.completedAt),
        isNull(patientLinks.revokedAt),
      ),
    );
  const token = newToken();
  const language: FormLanguage = input.language ?? patient.preferredLanguage;
  const [link] = await tx
    .insert(patientLinks)
    .values({
      instanceId: ctx.instanceId,
      patientId: patient.id,
      appointmentId: appointment.id,
      kind: 'intake',
      intakePlan: plan,
      tokenHash: sha256(token),
      language,
      expiresAt: intakeExpiry(appointment.startsAt),
      createdBy: ctx.actor?.userId ?? null,
    })
    .returning();
  const url = publicLink(ctx.config, intakePath(token, appointment.id));
  await recordActivity(
    tx,
    activity(ctx, 'Created', link!.id, `Intake link for patient ${patient.id}, steps ${plan.steps.join(',')}`),
  );
  const timeZone = clinicTimeZoneFrom(settings);
  const message = intakeMessage(language, {
    firstName: patient.firstName,
    clinicName: await clinicDisplayName(tx, ctx.instanceId, settings),
    when: messageDateTime(appointment.startsAt, timeZone, language),
    url,
  });
  const sent = (
    await queuePatientMessage(ctx, tx, {
      instanceId: ctx.instanceId,
      patientId: patient.id,
      channels: input.send,
      to: target,
      template: 'intake',
      message,
      batchId: batchId ?? undefined,
      // The auto-send sweep acts with no person: its link is held past the daily cap (decision 0066); a
      // link staff send by hand goes at once.
      automatic: ctx.actor === null,
      onQueued: (channel) =>
        recordActivity(tx, activity(ctx, 'Sent', link!.id, `Intake link sent to patient ${patient.id} by ${channel}`)),
    })
  ).filter((entry) => entry.status !== 'notSent');
  return { linkId: link!.id, url, steps: plan.steps, expiresAt: link!.expiresAt.toISOString(), sent };
}

export async function createIntake(ctx: SignedInContext, input: CreateInput): Promise<CreatedIntake> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    const appointment = await findVisibleAppointment(tx, ctx, input.appointmentId);
    if (appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
    if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
    const mobile = input.send.includes('sms') ? await mobileOf(tx, ctx.instanceId, patient.id) : null;
    if (input.send.includes('email') && !patient.email) throw fieldError('send', 'patientEmailMissing');
    if (input.send.includes('sms') && !mobile) throw fieldError('send', 'phoneRequired');
    return makeIntake(ctx, tx, patient, appointment, input, { email: patient.email, mobile }, null);
  });
}

/** Staff end an intake early (`intakeenddate`): the link closes at that moment or date. */
export async function endIntake(ctx: SignedInContext, linkId: string, endsAt: Date | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(patientLinks)
      .where(and(eq(patientLinks.id, linkId), eq(patientLinks.instanceId, ctx.instanceId), eq(patientLinks.kind, 'intake')))
      .for('update');
    if (!link) throw notFound('linkNotFound');
    await findVisiblePatient(ctx, tx, link.patientId);
    if (link.completedAt || link.revokedAt) return;
    const at = endsAt && endsAt.getTime() > Date.now() ? endsAt : new Date();
    await tx.update(patientLinks).set({ expiresAt: at }).where(eq(patientLinks.id, link.id));
    await recordActivity(tx, activity(ctx, 'Created', link.id, `Intake end date set to ${at.toISOString()}`));
  });
}

// ---- what staff see --------------------------------------------------------------------------------

const consentPdfUrl = (patientId: string, consentId: string) => `/api/patients/${patientId}/consents/${consentId}/pdf`;

export async function patientIntakes(ctx: SignedInContext, patientId: string): Promise<StaffIntake[]> {
  await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({ link: patientLinks, startsAt: appointments.startsAt })
    .from(patientLinks)
    .innerJoin(appointments, eq(appointments.id, patientLinks.appointmentId))
    .where(
      and(
        eq(patientLinks.instanceId, ctx.instanceId),
        eq(patientLinks.patientId, patientId),
        eq(patientLinks.kind, 'intake'),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(desc(appointments.startsAt), desc(patientLinks.createdAt))
    .limit(20);
  const linkIds = rows.map((row) => row.link.id);
  const entries = linkIds.length ? await ctx.db.select().from(intakeEntries).where(inArray(intakeEntries.linkId, linkIds)) : [];
  const responseIds = entries.map((entry) => entry.responseId).filter((id): id is string => Boolean(id));
  const scores = responseIds.length
    ? await ctx.db
        .select({ id: formResponses.id, headlineScore: formResponses.headlineScore, notScored: formResponses.notScored })
        .from(formResponses)
        .where(and(eq(formResponses.instanceId, ctx.instanceId), inArray(formResponses.id, responseIds)))
    : [];
  const consents = linkIds.length
    ? await ctx.db
        .select()
        .from(patientConsents)
        .where(and(eq(patientConsents.instanceId, ctx.instanceId), inArray(patientConsents.linkId, linkIds)))
    : [];
  const cardsOf = await cardPhotosOf(ctx.db, ctx.instanceId, patientId, linkIds);
  const now = new Date();
  const result: StaffIntake[] = [];
  for (const { link, startsAt } of rows) {
    const own = entries.filter((entry) => entry.linkId === link.id);
    const forms = await intakeForms(ctx.db, link, own);
    result.push({
      linkId: link.id,
      appointmentId: link.appointmentId!,
      appointmentStartsAt: startsAt.toISOString(),
      status: linkStatusOf(link, now),
      createdAt: link.createdAt.toISOString(),
      completedAt: link.completedAt?.toISOString() ?? null,
      steps: stepStates(link.intakePlan!, own),
      forms: forms.map((form) => {
        const responseId = own.find((entry) => entry.formKey === form.key && entry.step === form.step)?.responseId ?? null;
        const stored = scores.find((score) => score.id === responseId);
        return {
          ...form,
          responseId,
          headlineScore: stored?.headlineScore ?? null,
          ...(stored?.notScored ? { notScored: stored.notScored } : {}),
        };
      }),
      saved: savedAnswers(own),
      previousBodyMap: link.intakePlan!.steps.includes(5) ? await previousBodyMap(ctx.db, link, startsAt) : null,
      consents: consents.filter((consent) => consent.linkId === link.id).map((consent) => toConsent(consent, now)),
      insuranceCards: cardsOf(link.id),
    });
  }
  await recordActivity(ctx.db, activity(ctx, 'Viewed', patientId, `Viewed the intake of patient ${patientId}`));
  return result;
}

export function toConsent(row: typeof patientConsents.$inferSelect, now: Date): Consent {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    language: row.language,
    version: row.documentVersion,
    signedAt: row.signedAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
    pdfUrl: consentPdfUrl(row.patientId, row.id),
  };
}

export async function consentPdf(ctx: SignedInContext, patientId: string, consentId: string) {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const [consent] = await ctx.db
    .select()
    .from(patientConsents)
    .where(
      and(
        eq(patientConsents.instanceId, ctx.instanceId),
        eq(patientConsents.patientId, patient.id),
        eq(patientConsents.id, consentId),
      ),
    );
  if (!consent) throw notFound('recordNotFound');
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const timeZone = clinicTimeZoneFrom(settings);
  const [year, month, day] = patient.dateOfBirth.split('-');
  const pdf = await renderConsentPdf({
    clinicName: await clinicDisplayName(ctx.db, ctx.instanceId, settings),
    documentTitle: consent.title,
    documentText: consent.documentText,
    documentVersion: consent.documentVersion,
    language: consent.language,
    patientName: [patient.firstName, patient.lastName].join(' '),
    dateOfBirth: `${month}/${day}/${year}`,
    signedAt: consent.signedAt,
    signedAtText: formatClinicDateTime(consent.signedAt, timeZone),
    expiresAtText: consent.expiresAt ? clinicMdy(consent.expiresAt, timeZone) : null,
    signature: { image: consent.signatureImage },
  });
  await recordActivity(
    ctx.db,
    activity(ctx, 'Viewed', consent.id, `Opened the ${consent.kind} consent PDF of patient ${patient.id}`),
  );
  return { pdf, fileName: `${consent.kind}-${clinicMdy(consent.signedAt, timeZone).replaceAll('/', '-')}.pdf` };
}

// ---- appointment dashboard ---------------------------------------------------------------------------

function dayWindow(settings: SettingsMap, date: string | undefined) {
  const timeZone = clinicTimeZoneFrom(settings);
  if (date !== undefined && !isValidMdyDate(date)) throw fieldError('date', 'dateInvalid');
  const day = date ?? clinicMdy(new Date(), timeZone);
  return { day, timeZone, from: clinicDayStart(day, timeZone), to: clinicDayEnd(day, timeZone) };
}

/** The latest intake link of each appointment. */
async function latestIntakes(db: Database, instanceId: string, appointmentIds: string[]) {
  if (appointmentIds.length === 0) return new Map<string, typeof patientLinks.$inferSelect>();
  const links = await db
    .select()
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, instanceId),
        eq(patientLinks.kind, 'intake'),
        inArray(patientLinks.appointmentId, appointmentIds),
      ),
    )
    .orderBy(desc(patientLinks.createdAt));
  const latest = new Map<string, typeof patientLinks.$inferSelect>();
  for (const link of links) if (!latest.has(link.appointmentId!)) latest.set(link.appointmentId!, link);
  return latest;
}

export async function appointmentDashboard(
  ctx: SignedInContext,
  query: { date?: string; doctorId?: string; roomId?: string },
): Promise<AppointmentDashboard> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const { day, timeZone, from, to } = dayWindow(settings, query.date);
  const conditions = [
    ...appointmentScope(ctx, doctorScope(ctx, query.doctorId) ?? undefined),
    gte(appointments.startsAt, from),
    lt(appointments.startsAt, to),
  ];
  if (query.roomId) conditions.push(eq(appointments.roomId, query.roomId));
  const rows = await selectAppointments(ctx.db)
    .where(and(...conditions))
    .orderBy(appointments.startsAt, appointments.id)
    .limit(500);
  const latest = await latestIntakes(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => row.id),
  );
  const linkIds = [...latest.values()].map((link) => link.id);
  const entries = linkIds.length
    ? await ctx.db
        .select({
          linkId: intakeEntries.linkId,
          step: intakeEntries.step,
          formKey: intakeEntries.formKey,
          completedAt: intakeEntries.completedAt,
        })
        .from(intakeEntries)
        .where(inArray(intakeEntries.linkId, linkIds))
    : [];
  const findings = await findingsOfAppointmentRows(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => ({ appointmentId: row.id, patientId: row.patientId })),
  );
  const now = new Date();
  await recordActivity(ctx.db, activity(ctx, 'Viewed', ctx.instanceId, `Viewed the appointment dashboard for ${day}`));
  return {
    date: day,
    selfCheckIn: isOn(settings, 'enablePatientSelfCheckin'),
    rows: rows.map((row) => {
      const link = latest.get(row.id);
      return {
        appointmentId: row.id,
        patientId: row.patientId,
        patientName: [row.firstName, row.lastName].join(' '),
        startsAt: row.startsAt.toISOString(),
        timeText: clinicTime12(row.startsAt, timeZone),
        doctorName: row.doctorId ? `${row.doctorFirstName ?? ''} ${row.doctorLastName ?? ''}`.trim() : null,
        roomName: row.roomName ?? null,
        status: row.status,
        checkedIn: row.checkedInAt !== null,
        criticalFindings: findings.get(row.id) ?? [],
        intake: link
          ? {
              linkStatus: linkStatusOf(link, now),
              steps: stepStates(
                link.intakePlan!,
                entries.filter((entry) => entry.linkId === link.id),
              ),
            }
          : null,
      };
    }),
  };
}

// ---- bulk intake notification --------------------------------------------------------------------------

type Candidate = z.infer<typeof bulkIntakeCandidateSchema>;

async function bulkCandidates(ctx: SignedInContext, input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] }) {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const { timeZone, from, to } = dayWindow(settings, input.date);
  const conditions = [...appointmentScope(ctx), gte(appointments.startsAt, from), lt(appointments.startsAt, to)];
  if (input.doctorIds.length > 0) conditions.push(inArray(appointments.doctorId, input.doctorIds));
  const rows = await selectAppointments(ctx.db)
    .where(and(...conditions))
    .orderBy(appointments.startsAt, appointments.id)
    .limit(500);
  const latest = await latestIntakes(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => row.id),
  );
  const people = rows.length
    ? await ctx.db
        .select({ id: patients.id, email: patients.email, enableEmail: patients.enableEmail, enableText: patients.enableText })
        .from(patients)
        .where(and(eq(patients.instanceId, ctx.instanceId), inArray(patients.id, [...new Set(rows.map((row) => row.patientId))])))
    : [];
  const candidates: (Candidate & { email: string | null; mobile: string | null })[] = [];
  const now = new Date();
  for (const row of rows) {
    const person = people.find((candidate) => candidate.id === row.patientId);
    const link = latest.get(row.id);
    const mobile = await mobileOf(ctx.db, ctx.instanceId, row.patientId);
    const base = {
      appointmentId: row.id,
      patientId: row.patientId,
      patientName: [row.firstName, row.lastName].join(' '),
      timeText: clinicTime12(row.startsAt, timeZone),
      doctorName: row.doctorId ? `${row.doctorFirstName ?? ''} ${row.doctorLastName ?? ''}`.trim() : null,
      email: person?.email ?? null,
      mobile,
    };
    if (link && linkStatusOf(link, now) === 'completed') {
      candidates.push({ ...base, channels: [], reason: 'completed' });
      continue;
    }
    if (link && linkStatusOf(link, now) === 'active') {
      candidates.push({ ...base, channels: [], reason: 'alreadySent' });
      continue;
    }
    const { channels, optedOut } = await reachableChannels(ctx.db, settings, ctx.instanceId, person, mobile, input.send);
    candidates.push({ ...base, channels, reason: channels.length > 0 ? null : optedOut ? 'optedOut' : 'noContact' });
  }
  return candidates;
}

export async function previewBulkIntake(
  ctx: SignedInContext,
  input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] },
) {
  const candidates = await bulkCandidates(ctx, input);
  return { candidates: candidates.map(({ email: _email, mobile: _mobile, ...candidate }) => candidate) };
}

/** One link per reachable appointment, all messages under one batch id so staff can watch them go out. */
export async function startBulkIntake(
  ctx: SignedInContext,
  input: { date: string; doctorIds: string[]; send: ('email' | 'sms')[] },
) {
  const candidates = (await bulkCandidates(ctx, input)).filter((candidate) => candidate.channels.length > 0);
  if (candidates.length === 0) throw new AppError('CONFLICT', 'nobodyToNotify');
  const batchId = randomUUID();
  let messages = 0;
  await ctx.db.transaction(async (tx) => {
    for (const candidate of candidates) {
      const patient = await findVisiblePatient(ctx, tx, candidate.patientId);
      const appointment = await findVisibleAppointment(tx, ctx, candidate.appointmentId);
      const created = await makeIntake(
        ctx,
        tx,
        patient,
        appointment,
        { patientId: patient.id, appointmentId: appointment.id, send: candidate.channels },
        { email: candidate.email, mobile: candidate.mobile },
        batchId,
      );
      messages += created.sent.length;
    }
  });
  return { batchId, links: candidates.length, messages };
}

export async function bulkIntakeProgress(ctx: SignedInContext, batchId: string): Promise<BulkIntakeProgress> {
  const rows = await ctx.db
    .select({ status: outboxMessages.status, count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.instanceId, ctx.instanceId), eq(outboxMessages.batchId, batchId)))
    .groupBy(outboxMessages.status);
  if (rows.length === 0) throw notFound('recordNotFound');
  const count = (...statuses: string[]) =>
    rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.count), 0);
  return {
    batchId,
    total: count('queued', 'scheduled', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'stored', 'suppressed'),
    waiting: count('queued', 'scheduled', 'sending'),
    sent: count('sent', 'delivered'),
    failed: count('failed', 'undelivered'),
    notSent: count('stored', 'suppressed'),
  };
}
