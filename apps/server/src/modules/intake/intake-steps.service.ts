import { and, eq } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import type { FormLanguage } from '@pathwell/contracts/forms';
import {
  healthHistoryProblems,
  healthHistorySchema,
  intakeStepOfSlug,
  paperworkProblems,
  paperworkSchema,
  paymentChoiceSchema,
  vasScoresSchema,
  type ContactChoice,
  type IntakeSaveResponse,
  type IntakeStepSlug,
  type Paperwork,
} from '@pathwell/contracts/intake';
import { bodyMapProblems, bodyMapSchema, type BodyMap } from '@pathwell/contracts/body-map';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, intakeEntries, patientConsents, patientLinks, patients } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { accessExpiry, linkNotFound, patientActivity, requireOpen, type LinkRow } from '../patient-contact/link-access.service';
import { clinicTimeZoneFrom, isOn, numberSetting, readSettings, type SettingsMap } from '../settings/settings.service';
import { defaultAgreement } from './intake-documents';
import { agreementVersion } from './intake-agreement';
import { isDrawableSignature } from '../../lib/signed-pdf';
import { fillBlanks } from './intake-record.service';
import { lockOpenIntake, needsAttention } from './intake-link';
import { completeIfDone, CONTACT_KEY, CONTACT_STEP, INTAKE_TARGET } from './intake-progress';

/*
 * The patient's own answers in the intake: each step saved as a draft or finished (paperwork lands on the
 * record and signs the agreement, pain scores on the appointment), and the opt-in page's choice.
 */

const DAY_MS = 86_400_000;

const stepSchemas = {
  paperwork: paperworkSchema,
  history: healthHistorySchema,
  vas: vasScoresSchema,
  bodymap: bodyMapSchema,
  payment: paymentChoiceSchema,
} as const;

const clinicDay = (settings: SettingsMap, instant: Date) => clinicIsoDate(instant, clinicTimeZoneFrom(settings));

/** Paperwork lands on the patient's record and the agreement becomes a signed consent. */
async function applyPaperwork(ctx: ServiceContext, tx: Database, link: LinkRow, paperwork: Paperwork, language: FormLanguage) {
  const settings = await readSettings(tx, link.instanceId);
  const now = new Date();
  // What the record lacks is filled; anything that differs waits for staff (decision 0056).
  const filled = await fillBlanks(tx, link.instanceId, link.patientId, paperwork);
  await tx
    .update(patients)
    .set({ agreementSignedDate: clinicDay(settings, now), updatedAt: now })
    .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId)));
  const signature = paperwork.agreementSignature!;
  const days = numberSetting(settings, 'consentExpiration');
  await tx
    .insert(patientConsents)
    .values({
      instanceId: link.instanceId,
      patientId: link.patientId,
      appointmentId: link.appointmentId,
      linkId: link.id,
      kind: 'newPatientAgreement',
      title: defaultAgreement.title[language] ?? defaultAgreement.title.en,
      documentText: defaultAgreement.text[language] ?? defaultAgreement.text.en,
      documentVersion: await agreementVersion(tx, link.instanceId),
      language,
      signatureImage: signature.image,
      signedAt: new Date(signature.signedAt),
      expiresAt: days ? new Date(now.getTime() + days * DAY_MS) : null,
    })
    .onConflictDoNothing();
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Intake Information', 'Updated', {
      type: 'patient',
      id: link.patientId,
      description: `Patient completed new-patient paperwork and signed the agreement${
        filled.length > 0 ? `; filled where the record was empty: ${filled.join(', ')}` : ''
      }`,
    }),
  );
}

export async function saveStep(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  slug: IntakeStepSlug,
  input: { final: boolean; language: FormLanguage; data: Record<string, unknown> },
): Promise<IntakeSaveResponse> {
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const step = intakeStepOfSlug[slug];
    const plan = link.intakePlan!;
    if (!plan.steps.includes(step)) throw linkNotFound();
    const [existing] = await tx
      .select()
      .from(intakeEntries)
      .where(and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, step), eq(intakeEntries.formKey, '')));
    // A finished step is kept as it was sent: a retry or a late draft changes nothing.
    if (existing?.completedAt) return { done: true, completed: link.completedAt !== null };
    requireOpen(link);
    let data = input.data;
    if (input.final) {
      const parsed = stepSchemas[slug].safeParse(input.data);
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'data'] = issue.message;
        throw needsAttention(fields);
      }
      data = parsed.data as Record<string, unknown>;
      if (slug === 'paperwork') {
        const settings = await readSettings(tx, link.instanceId);
        const problems: Record<string, string> = paperworkProblems(data as Paperwork, {
          pharmacyRequired: isOn(settings, 'isPharmacyRequired'),
        });
        const signature = (data as Paperwork).agreementSignature;
        // Checked now, not when staff open the PDF: a signature the PDF cannot draw is refused while the patient is here.
        if (signature && !isDrawableSignature(signature.image)) problems['agreementSignature'] = 'signatureInvalid';
        if (Object.keys(problems).length > 0) throw needsAttention(problems);
      }
      if (slug === 'history') {
        const problems = healthHistoryProblems(data);
        if (Object.keys(problems).length > 0) throw needsAttention(problems);
      }
      if (slug === 'bodymap') {
        const problems = bodyMapProblems(data as BodyMap);
        if (Object.keys(problems).length > 0) throw needsAttention(problems);
      }
    }
    const completedAt = input.final ? new Date() : null;
    const values = { data, language: input.language, completedAt, updatedAt: new Date() };
    await tx
      .insert(intakeEntries)
      .values({ linkId: link.id, instanceId: link.instanceId, step, formKey: '', ...values })
      .onConflictDoUpdate({ target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey], set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    if (!input.final) return { done: false, completed: false };
    if (slug === 'paperwork') await applyPaperwork(ctx, tx, link, data as Paperwork, input.language);
    if (slug === 'vas') {
      await tx
        .update(appointments)
        .set({ painScore: (data as { current: number }).current, updatedAt: new Date() })
        .where(and(eq(appointments.id, link.appointmentId!), eq(appointments.instanceId, link.instanceId)));
    }
    if (slug !== 'paperwork') {
      await recordActivity(
        tx,
        patientActivity(ctx, link, slug === 'vas' || slug === 'bodymap' ? 'Checkins' : 'Intake Information', 'Updated', {
          type: INTAKE_TARGET,
          id: link.id,
          description: `Patient finished the ${slug} step of the intake`,
        }),
      );
    }
    return { done: true, completed: await completeIfDone(ctx, tx, link) };
  });
}

// ---- the opt-in page ----------------------------------------------------------------------------------

/**
 * The patient says whether the clinic may send them optional messages (campaigns) by email and by text
 * (`showOptInToConsentPage`): the answer becomes the patient's `outreachEmail` / `outreachText`. Care
 * messages (their own forms, appointments) stay as they were: declining optional messages never stops
 * questionnaires or reminders (issue #24 §5, decision 0065). A text number the patient stopped with STOP
 * stays stopped until they send START (carrier rules).
 */
export async function saveContactChoice(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  choice: ContactChoice,
  language: FormLanguage,
): Promise<IntakeSaveResponse> {
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    requireOpen(link);
    const settings = await readSettings(tx, link.instanceId);
    if (!isOn(settings, 'showOptInToConsentPage')) throw new AppError('FORBIDDEN', 'notAllowed');
    const now = new Date();
    await tx
      .update(patients)
      .set({ outreachEmail: choice.email, outreachText: choice.text, updatedAt: now })
      .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId)));
    await tx
      .insert(intakeEntries)
      .values({
        linkId: link.id,
        instanceId: link.instanceId,
        step: CONTACT_STEP,
        formKey: CONTACT_KEY,
        data: choice,
        language,
        completedAt: now,
      })
      .onConflictDoUpdate({
        target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey],
        set: { data: choice, language, completedAt: now, updatedAt: now },
      });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Intake Information', 'Updated', {
        type: 'patient',
        id: link.patientId,
        description: `Patient chose optional messages by email: ${choice.email ? 'yes' : 'no'}, by text: ${choice.text ? 'yes' : 'no'}`,
      }),
    );
    return { done: true, completed: false };
  });
}
