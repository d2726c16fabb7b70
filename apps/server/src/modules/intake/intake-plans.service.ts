import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { messageDateTime } from '@pathwell/contracts/message-dates';
import type { FormLanguage } from '@pathwell/contracts/forms';
import {
  INTAKE_MAX_DAYS,
  INTAKE_OPEN_HOURS_AFTER_START,
  type CreatedIntake,
  type IntakeWorkStep,
} from '@pathwell/contracts/intake';
import type { z } from 'zod';
import type { createIntakeSchema } from '@pathwell/contracts/intake';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, customForms, patientConsents, patientLinks, type IntakePlan } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { appointmentFormCodes } from '../form-responses/form-responses.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZoneFrom, isOn, readSettings, type SettingsMap } from '../settings/settings.service';
import { intakeMessage } from './intake.messages';
import { publicLink } from '../../lib/public-url';
import { formsWithoutWording, requireFormsWorded } from '../form-responses/wording-availability.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { mobileOf } from '../patient-contact/reach.service';

/*
 * An appointment's intake as staff (or the sweep) make it: which steps it needs, the link with its expiry
 * and its messages, and ending it early.
 */

type CreateInput = z.output<typeof createIntakeSchema>;
type PatientRow = Awaited<ReturnType<typeof findVisiblePatient>>;
type AppointmentRow = Awaited<ReturnType<typeof findVisibleAppointment>>;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Staff, or the intake sweep acting for a clinic with no one signed in (the entry then names no actor). */
type IntakeContext = ServiceContext & { instanceId: string };

export const intakeActivity = (ctx: IntakeContext, action: 'Created' | 'Sent' | 'Viewed', id: string, description: string) =>
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
async function intakePlanFor(
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

function intakeExpiry(startsAt: Date, now = new Date()): Date {
  const afterVisit = startsAt.getTime() + INTAKE_OPEN_HOURS_AFTER_START * HOUR_MS;
  return new Date(Math.min(Math.max(afterVisit, now.getTime() + DAY_MS), now.getTime() + INTAKE_MAX_DAYS * DAY_MS));
}

const intakePath = (token: string, appointmentId: string) => `/patients/intake/${token}/${appointmentId}`;

interface SendTarget {
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
    intakeActivity(ctx, 'Created', link!.id, `Intake link for patient ${patient.id}, steps ${plan.steps.join(',')}`),
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
        recordActivity(tx, intakeActivity(ctx, 'Sent', link!.id, `Intake link sent to patient ${patient.id} by ${channel}`)),
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
    await recordActivity(tx, intakeActivity(ctx, 'Created', link.id, `Intake end date set to ${at.toISOString()}`));
  });
}
