import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import { clinicIsoDate, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import { formProblems } from '@pathwell/contracts/form-logic';
import type { Answers, FormLanguage, LocalizedText, RenderableForm } from '@pathwell/contracts/forms';
import {
  healthHistoryProblems,
  healthHistorySchema,
  intakeStepOfSlug,
  paperworkProblems,
  paperworkSchema,
  paymentChoiceSchema,
  vasScoresSchema,
  type IntakeForm,
  type IntakeSaveResponse,
  type IntakeStepSlug,
  type IntakeView,
  type IntakeWorkStep,
  type Paperwork,
  contactChoiceSchema,
  type ContactChoice,
} from '@pathwell/contracts/intake';
import { bodyMapProblems, bodyMapSchema, type BodyMap } from '@pathwell/contracts/body-map';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import type { Draft, LinkForm, SubmitLink } from '@pathwell/contracts/patient-links';
import { FORM_RESPONSE_ADDED } from '@pathwell/contracts/patient-links';
import { recordCriticalFindings, responseHasFindings } from '../critical-findings/critical-findings.service';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import {
  appointments,
  customForms,
  formResponses,
  instanceFiles,
  intakeEntries,
  patientConsents,
  patientLinks,
  patients,
  users,
  type IntakePlan,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { notifyIfAppointmentFormsComplete } from '../notifications/notifications.service';
import {
  accessExpiry,
  findLink,
  findLinkPatient,
  gone,
  linkNotFound,
  linkStatusOf,
  patientActivity,
  requireAccess,
  requireOpen,
} from '../patient-contact/link-access.service';
import { loadForm, requireLanguage, scoredAnswers } from '../patient-links/link-forms.service';
import { clinicTimeZoneFrom, isOn, numberSetting, readSettings, type SettingsMap } from '../settings/settings.service';
import { defaultAgreement } from './intake-documents';
import { isDrawableSignature } from './consent-pdf';
import { cardSidesOf } from './insurance-cards.service';
import { fillBlanks, onFileFor } from './intake-record.service';
import type { IntakeViewWithRecord } from '@pathwell/contracts/intake-record';
import { refuseTransition } from '../appointments/appointment-status';
import { formsWithoutWording } from '../form-responses/wording-availability';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { mobileTextStopped } from '../patient-contact/reach.service';

type LinkRow = typeof patientLinks.$inferSelect;
type EntryRow = typeof intakeEntries.$inferSelect;
const DAY_MS = 86_400_000;
const INTAKE_TARGET = 'intake';

// ---- forms inside the flow -------------------------------------------------------------------------

export const proKey = (formCode: number) => `pro-${formCode}`;
export const customKey = (customFormId: string) => `cf-${customFormId.toLowerCase()}`;

/** The forms a plan holds, in the order the patient meets them. */
export function planForms(
  plan: IntakePlan,
): { key: string; step: 2 | 3 | 6; formCode: number | null; customFormId: string | null }[] {
  return [
    ...(plan.steps.includes(2) ? plan.historyFormIds : []).map((id) => ({
      key: customKey(id),
      step: 2 as const,
      formCode: null,
      customFormId: id,
    })),
    ...(plan.steps.includes(3) ? plan.checkInFormIds : []).map((id) => ({
      key: customKey(id),
      step: 3 as const,
      formCode: null,
      customFormId: id,
    })),
    ...(plan.steps.includes(6) ? plan.formCodes : []).map((code) => ({
      key: proKey(code),
      step: 6 as const,
      formCode: code,
      customFormId: null,
    })),
  ];
}

/** The steps whose own answers the patient gives (the others are only forms). */
const ownAnswerSteps: readonly IntakeWorkStep[] = [1, 2, 4, 5, 7];

export function stepStates(plan: IntakePlan, entries: Pick<EntryRow, 'step' | 'formKey' | 'completedAt'>[]) {
  const finished = new Set(entries.filter((entry) => entry.completedAt).map((entry) => `${entry.step}:${entry.formKey}`));
  const forms = planForms(plan);
  return plan.steps.map((step) => {
    const ownDone = !ownAnswerSteps.includes(step) || finished.has(`${step}:`);
    const formsDone = forms.filter((form) => form.step === step).every((form) => finished.has(`${step}:${form.key}`));
    return { step, done: ownDone && formsDone };
  });
}

async function formTitles(db: Database, instanceId: string, plan: IntakePlan): Promise<Map<string, LocalizedText>> {
  const titles = new Map<string, LocalizedText>();
  for (const code of plan.formCodes) if (isFormCode(code)) titles.set(proKey(code), getInstrument(code).name);
  const ids = [...plan.historyFormIds, ...plan.checkInFormIds];
  if (ids.length > 0) {
    const rows = await db
      .select({ id: customForms.id, title: customForms.title })
      .from(customForms)
      .where(and(eq(customForms.instanceId, instanceId), inArray(customForms.id, ids)));
    for (const row of rows) titles.set(customKey(row.id), { en: row.title });
  }
  return titles;
}

export async function intakeForms(db: Database, link: LinkRow, entries: EntryRow[]): Promise<IntakeForm[]> {
  const plan = link.intakePlan!;
  const titles = await formTitles(db, link.instanceId, plan);
  return planForms(plan).map((form) => ({
    key: form.key,
    step: form.step,
    title: titles.get(form.key) ?? { en: form.key },
    done: entries.some((entry) => entry.step === form.step && entry.formKey === form.key && entry.completedAt !== null),
  }));
}

// ---- reading a link --------------------------------------------------------------------------------

async function findIntakeLink(db: Database, token: string, forUpdate = false): Promise<LinkRow> {
  const link = await findLink(db, token, forUpdate);
  if (link.kind !== 'intake' || !link.intakePlan || !link.appointmentId) throw linkNotFound();
  // A plan made before decision 0061 may hold a form the clinic cannot give: the patient is not asked
  // for it (its neutral labels are not the instrument), so it neither shows nor holds the intake open.
  const unworded = new Set(await formsWithoutWording(db, link.instanceId, link.intakePlan.formCodes));
  if (unworded.size === 0) return link;
  const formCodes = link.intakePlan.formCodes.filter((code) => !unworded.has(code));
  const steps = formCodes.length > 0 ? link.intakePlan.steps : link.intakePlan.steps.filter((step) => step !== 6);
  return { ...link, intakePlan: { ...link.intakePlan, formCodes, steps } };
}

/** A finished intake can be looked at again (read-only); any other closed state ends here. */
function requireReadable(link: LinkRow) {
  if (linkStatusOf(link) === 'completed') return;
  requireOpen(link);
}

async function entriesOf(db: Database, linkId: string) {
  return db.select().from(intakeEntries).where(eq(intakeEntries.linkId, linkId));
}

const savedOf = (entries: EntryRow[], step: IntakeWorkStep) =>
  entries.find((entry) => entry.step === step && entry.formKey === '');

/** The body map of the patient's latest earlier visit whose intake marked one. */
export async function previousBodyMap(db: Database, link: Pick<LinkRow, 'instanceId' | 'patientId' | 'id'>, before: Date) {
  const [row] = await db
    .select({ data: intakeEntries.data })
    .from(intakeEntries)
    .innerJoin(patientLinks, eq(patientLinks.id, intakeEntries.linkId))
    .innerJoin(appointments, eq(appointments.id, patientLinks.appointmentId))
    .where(
      and(
        eq(intakeEntries.instanceId, link.instanceId),
        eq(patientLinks.patientId, link.patientId),
        ne(patientLinks.id, link.id),
        eq(intakeEntries.step, 5),
        eq(intakeEntries.formKey, ''),
        isNotNull(intakeEntries.completedAt),
        lt(appointments.startsAt, before),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(desc(appointments.startsAt))
    .limit(1);
  return row ? (row.data as BodyMap) : null;
}

export async function agreementFile(db: Database, instanceId: string, language: FormLanguage) {
  const keys = language === 'es' ? ['newPatientAgreementEs', 'newPatientAgreementEn'] : ['newPatientAgreementEn'];
  const files = await db
    .select({ fileKey: instanceFiles.fileKey, content: instanceFiles.content })
    .from(instanceFiles)
    .where(and(eq(instanceFiles.instanceId, instanceId), inArray(instanceFiles.fileKey, keys)));
  return keys.map((key) => files.find((file) => file.fileKey === key)).find(Boolean) ?? null;
}

/** The agreement's version: a hash of exactly what the patient was shown, in both languages and any file. */
export async function agreementVersion(db: Database, instanceId: string) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(defaultAgreement));
  for (const language of ['en', 'es'] as const) {
    const file = await agreementFile(db, instanceId, language);
    if (file) hash.update(file.content);
  }
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

async function appointmentOf(db: Database, link: LinkRow) {
  const [row] = await db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      reason: appointments.reason,
      amountDueCents: appointments.amountDueCents,
      status: appointments.status,
      doctorFirstName: users.firstName,
      doctorLastName: users.lastName,
    })
    .from(appointments)
    .leftJoin(users, eq(users.id, appointments.doctorId))
    .where(
      and(eq(appointments.id, link.appointmentId!), eq(appointments.instanceId, link.instanceId), isNull(appointments.deletedAt)),
    );
  // An appointment deleted since the link was sent: the link leads nowhere.
  if (!row) throw linkNotFound();
  return row;
}

export function viewOptions(settings: SettingsMap) {
  return {
    welcomeScreen: isOn(settings, 'welcomeScreenEnabled'),
    hideExitPro: isOn(settings, 'hideExitPro'),
    checkinConfirmation: isOn(settings, 'checkinConfirmationPage'),
    pharmacyRequired: isOn(settings, 'isPharmacyRequired'),
    contactOptIn: isOn(settings, 'showOptInToConsentPage'),
    ask: {
      sexualOrientation: isOn(settings, 'extendedPatientAskSexualOrientation'),
      sexAssignedAtBirth: isOn(settings, 'extendedPatientAskAssignedSexAtBirth'),
      pronouns: isOn(settings, 'extendedPatientAskPreferredPronouns'),
      communicationPreferences: isOn(settings, 'extendedPatientAskCommunicationPreferences'),
    },
  };
}

export function savedAnswers(entries: EntryRow[]): IntakeView['saved'] {
  const data = (step: IntakeWorkStep) => savedOf(entries, step)?.data ?? null;
  return {
    paperwork: data(1) as IntakeView['saved']['paperwork'],
    history: data(2) as IntakeView['saved']['history'],
    vas: data(4) as IntakeView['saved']['vas'],
    bodymap: data(5) as IntakeView['saved']['bodymap'],
    payment: data(7) as IntakeView['saved']['payment'],
  };
}

export async function intakeView(ctx: ServiceContext, token: string, bearer: string | undefined): Promise<IntakeViewWithRecord> {
  return ctx.db.transaction(async (tx) => {
    const link = await findIntakeLink(tx, token);
    requireAccess(link, bearer);
    requireReadable(link);
    const patient = await findLinkPatient(tx, link);
    const appointment = await appointmentOf(tx, link);
    const settings = await readSettings(tx, link.instanceId);
    const timeZone = clinicTimeZoneFrom(settings);
    const entries = await entriesOf(tx, link.id);
    const plan = link.intakePlan!;
    if (!link.completedAt) {
      await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    }
    const doctorName = [appointment.doctorFirstName, appointment.doctorLastName].filter(Boolean).join(' ');
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      appointment: {
        id: appointment.id,
        startsAt: appointment.startsAt.toISOString(),
        startsAtText: formatClinicDateTime(appointment.startsAt, timeZone),
        doctorName: doctorName || null,
        newPatient: appointment.reason === 'new_patient',
      },
      steps: stepStates(plan, entries),
      ownDone: entries
        .filter((entry) => entry.formKey === '' && entry.step !== CONTACT_STEP && entry.completedAt !== null)
        .map((entry) => entry.step as IntakeWorkStep),
      forms: await intakeForms(tx, link, entries),
      saved: savedAnswers(entries),
      previousBodyMap: plan.steps.includes(5) ? await previousBodyMap(tx, link, appointment.startsAt) : null,
      agreement: plan.steps.includes(1)
        ? {
            title: defaultAgreement.title,
            text: defaultAgreement.text,
            version: await agreementVersion(tx, link.instanceId),
            fileUrl: (await agreementFile(tx, link.instanceId, 'en')) ? `/api/intake/${token}/agreement` : null,
          }
        : null,
      options: viewOptions(settings),
      amountDueCents: plan.steps.includes(7) ? appointment.amountDueCents : null,
      contactChoice: contactChoiceOf(entries),
      textStopped: isOn(settings, 'showOptInToConsentPage')
        ? await mobileTextStopped(tx, link.instanceId, link.patientId)
        : false,
      completedAt: link.completedAt?.toISOString() ?? null,
      checkIn: {
        offered: checkInOffered(settings, appointment, timeZone) && appointment.status === AppointmentStatus.Upcoming,
        checkedIn: appointment.status === AppointmentStatus.Checking_In,
        fromHome: isOn(settings, 'enableHomeCheckin'),
      },
      insuranceCards: plan.steps.includes(1) ? await cardSidesOf(tx, link.id) : [],
      // Past the identity check only (requireAccess above): what the clinic has, for the patient to confirm or correct.
      onFile: plan.steps.includes(1) ? await onFileFor(tx, link.instanceId, link.patientId) : null,
    };
  });
}

/** The clinic's uploaded agreement PDF in the patient's language (English when there is no Spanish one). */
export async function agreementPdf(ctx: ServiceContext, token: string, bearer: string | undefined, language: FormLanguage) {
  const link = await findIntakeLink(ctx.db, token);
  requireAccess(link, bearer);
  requireReadable(link);
  const file = await agreementFile(ctx.db, link.instanceId, language);
  if (!file) throw linkNotFound();
  return file.content;
}

// ---- the opt-in page ----------------------------------------------------------------------------------

/** The opt-in answer is kept beside the steps (step 0 is no step of the plan). */
const CONTACT_STEP = 0;
const CONTACT_KEY = 'contact';

function contactChoiceOf(entries: EntryRow[]): ContactChoice | null {
  const entry = entries.find((candidate) => candidate.step === CONTACT_STEP && candidate.formKey === CONTACT_KEY);
  const parsed = entry ? contactChoiceSchema.safeParse(entry.data) : null;
  return parsed?.success ? parsed.data : null;
}

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

// ---- check-in from the link -------------------------------------------------------------------------

const checkInAllowed = (settings: SettingsMap) =>
  isOn(settings, 'enablePatientSelfCheckin') || isOn(settings, 'enableHomeCheckin');
export const sameClinicDay = (a: Date, b: Date, timeZone: string) => clinicIsoDate(a, timeZone) === clinicIsoDate(b, timeZone);
function checkInOffered(settings: SettingsMap, appointment: { startsAt: Date }, timeZone: string, now = new Date()) {
  return checkInAllowed(settings) && sameClinicDay(appointment.startsAt, now, timeZone);
}

/**
 * The patient checks in from the link, at the clinic (`enablePatientSelfCheckin`) or from home
 * (`enableHomeCheckin`), on the day of the visit. The status moves by decision 0013's rules, as when
 * staff check a patient in; checking in twice changes nothing.
 */
export async function patientCheckIn(ctx: ServiceContext, token: string, bearer: string | undefined) {
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    requireReadable(link);
    const settings = await readSettings(tx, link.instanceId);
    if (!checkInAllowed(settings)) throw new AppError('FORBIDDEN', 'notAllowed');
    const appointment = await appointmentOf(tx, link);
    await checkInByPatient(
      ctx,
      tx,
      settings,
      { instanceId: link.instanceId, patientId: link.patientId, appointment },
      'the intake link',
    );
    return { checkedIn: true, confirmationPage: isOn(settings, 'checkinConfirmationPage') };
  });
}

/**
 * The patient checks in, from the intake link or the self check-in QR page: on the day of the visit,
 * by decision 0013's rules as when staff check a patient in; checking in twice changes nothing.
 */
export async function checkInByPatient(
  ctx: ServiceContext,
  tx: Database,
  settings: SettingsMap,
  target: { instanceId: string; patientId: string; appointment: { id: string; startsAt: Date; status: number } },
  from: string,
) {
  const { appointment } = target;
  if (appointment.status === AppointmentStatus.Checking_In) return;
  const now = new Date();
  if (!sameClinicDay(appointment.startsAt, now, clinicTimeZoneFrom(settings))) throw new AppError('CONFLICT', 'checkinNotToday');
  const status = appointment.status as AppointmentStatusCode;
  if (refuseTransition(status, AppointmentStatus.Checking_In, appointment.startsAt, now)) {
    throw new AppError('CONFLICT', 'statusChangeNotAllowed', { params: { from: status, to: AppointmentStatus.Checking_In } });
  }
  await tx
    .update(appointments)
    .set({ status: AppointmentStatus.Checking_In, checkedInAt: now, checkInDelayedUntil: null, updatedAt: now })
    .where(and(eq(appointments.id, appointment.id), eq(appointments.instanceId, target.instanceId)));
  await recordActivity(
    tx,
    patientActivity(ctx, target, 'Checkins', 'Created', {
      type: 'appointment',
      id: appointment.id,
      description: `Patient ${target.patientId} checked in from ${from}`,
    }),
  );
  // The appointment dashboard refreshes on this.
  await ctx.events.publish(tx, { instanceId: target.instanceId, kind: 'notification' });
}

// ---- saving steps ----------------------------------------------------------------------------------

const needsAttention = (fields: Record<string, string>) =>
  new AppError('VALIDATION', 'answersNeedAttention', { fields: fields as Record<string, ValidationMessageKey> });

const stepSchemas = {
  paperwork: paperworkSchema,
  history: healthHistorySchema,
  vas: vasScoresSchema,
  bodymap: bodyMapSchema,
  payment: paymentChoiceSchema,
} as const;

export async function lockOpenIntake(tx: Database, token: string, bearer: string | undefined) {
  const link = await findIntakeLink(tx, token, true);
  requireAccess(link, bearer);
  return link;
}

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

/** When every step is done the link is complete: staff are told, and the appointment's forms are in. */
async function completeIfDone(ctx: ServiceContext, tx: Database, link: LinkRow): Promise<boolean> {
  if (link.completedAt) return true;
  const entries = await entriesOf(tx, link.id);
  if (!stepStates(link.intakePlan!, entries).every((state) => state.done)) return false;
  await tx
    .update(patientLinks)
    .set({ completedAt: sql`now()` })
    .where(eq(patientLinks.id, link.id));
  await notifyIfAppointmentFormsComplete(ctx, tx, link);
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Intake Information', 'Created', {
      type: INTAKE_TARGET,
      id: link.id,
      description: `Patient ${link.patientId} completed the intake for appointment ${link.appointmentId}`,
    }),
  );
  return true;
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

// ---- forms inside the flow -------------------------------------------------------------------------

function formOf(link: LinkRow, key: string) {
  const form = planForms(link.intakePlan!).find((candidate) => candidate.key === key.toLowerCase());
  if (!form) throw linkNotFound();
  return form;
}

export async function intakeForm(ctx: ServiceContext, token: string, bearer: string | undefined, key: string): Promise<LinkForm> {
  return ctx.db.transaction(async (tx) => {
    const link = await findIntakeLink(tx, token);
    requireAccess(link, bearer);
    requireReadable(link);
    const planned = formOf(link, key);
    const patient = await findLinkPatient(tx, link);
    const { form } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    const [entry] = await tx
      .select()
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (!link.completedAt) {
      await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    }
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      form,
      draft: entry ? { answers: entry.data as Answers, position: entry.position, language: entry.language } : null,
    };
  });
}

export async function saveIntakeFormDraft(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  key: string,
  input: Draft,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const planned = formOf(link, key);
    const [entry] = await tx
      .select({ completedAt: intakeEntries.completedAt })
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (entry?.completedAt) return;
    requireOpen(link);
    const { form } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    requireLanguage(form, input.language);
    const values = { data: input.answers, position: input.position, language: input.language, updatedAt: new Date() };
    await tx
      .insert(intakeEntries)
      .values({ linkId: link.id, instanceId: link.instanceId, step: planned.step, formKey: planned.key, ...values })
      .onConflictDoUpdate({ target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey], set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
  });
}

/** As a form link's submission (decision 0016): scored on the server, once per idempotency key. */
export async function submitIntakeForm(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  key: string,
  input: SubmitLink,
): Promise<{ replay: boolean; body: { message: string; responseId: string; crisisResources: boolean } }> {
  const answered = (responseId: string, replay: boolean, crisisResources: boolean) => ({
    replay,
    body: { message: FORM_RESPONSE_ADDED, responseId, crisisResources },
  });
  return ctx.db.transaction(async (tx) => {
    const link = await lockOpenIntake(tx, token, bearer);
    const planned = formOf(link, key);
    const [earlier] = await tx
      .select({ id: formResponses.id, linkId: formResponses.linkId })
      .from(formResponses)
      .where(and(eq(formResponses.instanceId, link.instanceId), eq(formResponses.idempotencyKey, input.idempotencyKey)));
    if (earlier) {
      if (earlier.linkId === link.id)
        return answered(earlier.id, true, await responseHasFindings(tx, link.instanceId, earlier.id));
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    const [entry] = await tx
      .select()
      .from(intakeEntries)
      .where(
        and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, planned.step), eq(intakeEntries.formKey, planned.key)),
      );
    if (entry?.completedAt) throw gone('completed');
    requireOpen(link);
    const { form, customFormVersionId } = await loadForm(tx, {
      instanceId: link.instanceId,
      formCode: planned.formCode,
      customFormId: planned.customFormId,
    });
    requireLanguage(form, input.language);
    const problems = formProblems(form as RenderableForm, input.answers);
    if (Object.keys(problems).length > 0) throw needsAttention(problems);
    const { answers, scores, headlineScore, band } = scoredAnswers(form, planned.formCode, input.answers);
    const [inserted] = await tx
      .insert(formResponses)
      .values({
        instanceId: link.instanceId,
        patientId: link.patientId,
        appointmentId: link.appointmentId,
        linkId: link.id,
        formCode: planned.formCode,
        customFormVersionId,
        version: form.version,
        language: input.language,
        answers,
        scores,
        headlineScore,
        band,
        idempotencyKey: input.idempotencyKey,
      })
      .onConflictDoNothing({ target: [formResponses.instanceId, formResponses.idempotencyKey] })
      .returning({ id: formResponses.id });
    // The link row is locked, so only another link's request can have taken this key meanwhile.
    if (!inserted) throw new AppError('CONFLICT', 'submissionKeyUsed');
    const crisisResources = await recordCriticalFindings(
      ctx,
      tx,
      {
        id: inserted.id,
        instanceId: link.instanceId,
        patientId: link.patientId,
        appointmentId: link.appointmentId,
        formCode: planned.formCode,
      },
      answers,
    );
    const values = {
      data: {},
      position: 0,
      language: input.language,
      responseId: inserted.id,
      completedAt: new Date(),
      updatedAt: new Date(),
    };
    await tx
      .insert(intakeEntries)
      .values({ linkId: link.id, instanceId: link.instanceId, step: planned.step, formKey: planned.key, ...values })
      .onConflictDoUpdate({ target: [intakeEntries.linkId, intakeEntries.step, intakeEntries.formKey], set: values });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Form Submission', 'Created', {
        type: 'form response',
        id: inserted.id,
        description: `Patient ${link.patientId} submitted ${form.title.en} in the intake`,
      }),
    );
    await completeIfDone(ctx, tx, link);
    return answered(inserted.id, false, crisisResources);
  });
}
