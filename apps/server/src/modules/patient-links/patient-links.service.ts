import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  formLanguages,
  type Answers,
  type FormLanguage,
  type LocalizedText,
  type RenderableForm,
  type Scores,
} from '@pathwell/contracts/forms';
import { INTAKE_LINK_TITLE } from '@pathwell/contracts/intake';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { CONSENT_LINK_TITLE } from '@pathwell/contracts/consent-links';
import { PAIN_JOURNAL_LINK_TITLE } from '@pathwell/contracts/pain-journal';
import { formProblems, keepVisibleAnswers, visibleQuestions } from '@pathwell/contracts/form-logic';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  customFormPath,
  FORM_RESPONSE_ADDED,
  instrumentPath,
  LINK_ACCESS_MINUTES,
  LINK_EMAIL_CODE_MAX_ATTEMPTS,
  LINK_EMAIL_CODE_MAX_SENDS,
  LINK_EMAIL_CODE_MINUTES,
  LINK_EMAIL_CODE_RESEND_SECONDS,
  LINK_TOKEN_PATTERN,
  type CreatedPatientLink,
  type Draft,
  type EmailCodeSent,
  type LinkForm,
  type LinkStatus,
  type LinkStatusResponse,
  type PatientLink,
  type SubmitLink,
  type VerifyLink,
} from '@pathwell/contracts/patient-links';
import {
  getInstrument,
  headlineOf,
  instrumentForm,
  isFormCode,
  scoreForm,
  wordingAvailability,
  type LicensedWording,
} from '@pathwell/instruments';
import { enterClinicOf, withSystemContext, type ServiceContext, type SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import {
  customForms,
  customFormVersions,
  appointments,
  formDrafts,
  formResponses,
  instrumentWordings,
  patientLinks,
  patients,
} from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newSixDigitCode, newToken, sameHash, sha256 } from '../../lib/secrets';
import { requireFormsWorded } from '../form-responses/wording-availability';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { findVisiblePatient } from '../patients/patients.service';
import { clinicTimeZone, clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import { identityLocked, identityMatches, identityFailureText, identityMismatch, nextIdentityFailure } from './identity-check';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { queueMessage } from '../outbox/outbox.service';
import { recordCriticalFindings, responseHasFindings } from '../critical-findings/critical-findings.service';
import { notifyIfAppointmentFormsComplete } from '../notifications/notifications.service';
import { linkCodeEmail, linkEmail } from './patient-links.emails';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name';

type LinkRow = typeof patientLinks.$inferSelect;
type CreateInput = {
  patientId: string;
  appointmentId?: string | null;
  formCode?: number | null;
  customFormId?: string | null;
  expiresInDays: number;
  send: 'none' | 'email';
  language?: FormLanguage;
};

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const LINK_TARGET = 'patient link';

export const linkNotFound = () => new AppError('NOT_FOUND', 'linkNotFound');
export const gone = (status: LinkStatus) => new AppError('GONE', 'linkGone', { params: { status } });
const noAccess = () => new AppError('UNAUTHENTICATED', 'identityAgain');

/** Precedence: what can never change again first, then what the clinic did, then what time did. */
export function linkStatusOf(
  link: Pick<LinkRow, 'completedAt' | 'revokedAt' | 'expiresAt' | 'lockedUntil'>,
  now = new Date(),
): LinkStatus {
  if (link.completedAt) return 'completed';
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (link.lockedUntil && link.lockedUntil.getTime() > now.getTime()) return 'locked';
  return 'active';
}

export { normalizeLastName } from './identity-check';

// ---- forms -----------------------------------------------------------------------------------------

export interface LoadedForm {
  form: RenderableForm;
  title: LocalizedText;
  customFormVersionId: string | null;
  /**
   * False for a licensed instrument whose wording the clinic has not imported (decision 0061): its
   * neutral labels are not the instrument, so it is neither shown to the patient nor scored.
   */
  available: boolean;
}

function instrumentTitle(formCode: number): LocalizedText {
  if (!isFormCode(formCode)) throw new Error(`Unknown form code ${formCode}`);
  return getInstrument(formCode).name;
}

/** The form as the patient sees it now: the clinic's licensed wording when imported, the current custom version. */
export async function loadForm(
  db: Database,
  link: Pick<LinkRow, 'instanceId' | 'formCode' | 'customFormId'>,
): Promise<LoadedForm> {
  if (link.formCode !== null) {
    const code = link.formCode;
    if (!isFormCode(code)) throw new Error(`Unknown form code ${code}`);
    const [wording] = await db
      .select({ definition: instrumentWordings.definition })
      .from(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, link.instanceId), eq(instrumentWordings.formCode, code)));
    // Wording is validated against the structure when a System Manager imports it.
    const form = instrumentForm(code, wording ? (wording.definition as LicensedWording) : undefined);
    const { available } = wordingAvailability(getInstrument(code), wording ? form : null);
    return { form, title: getInstrument(code).name, customFormVersionId: null, available };
  }
  const [row] = await db
    .select({
      id: customForms.id,
      currentVersion: customForms.currentVersion,
      versionId: customFormVersions.id,
      content: customFormVersions.content,
    })
    .from(customForms)
    .innerJoin(
      customFormVersions,
      and(eq(customFormVersions.customFormId, customForms.id), eq(customFormVersions.version, customForms.currentVersion)),
    )
    .where(and(eq(customForms.id, link.customFormId!), eq(customForms.instanceId, link.instanceId)));
  if (!row) throw linkNotFound();
  return {
    form: { ...row.content, kind: 'custom', formCode: null, customFormId: row.id, version: String(row.currentVersion) },
    title: row.content.title,
    customFormVersionId: row.versionId,
    available: true,
  };
}

/** A link to a form the clinic cannot give (decision 0061) takes no answers: the clinic contacts the patient instead. */
export function requireAvailable(loaded: LoadedForm) {
  if (!loaded.available) throw new AppError('CONFLICT', 'formWordingNotLoaded');
}

const titleIn = (title: LocalizedText, language: FormLanguage) => (language === 'es' && title.es ? title.es : title.en);

// ---- staff side ------------------------------------------------------------------------------------

const activity = (ctx: SignedInContext, action: 'Created' | 'Sent' | 'Deleted', targetId: string, description: string) =>
  staffActivity(ctx, 'Form Submission', action, { type: LINK_TARGET, id: targetId, description: description });

function toPatientLink(row: LinkRow, formTitle: string, responseId: string | null, now = new Date()): PatientLink {
  return {
    id: row.id,
    patientId: row.patientId,
    appointmentId: row.appointmentId,
    formCode: row.formCode,
    customFormId: row.customFormId,
    formTitle,
    status: linkStatusOf(row, now),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    responseId,
  };
}

export async function createLink(ctx: SignedInContext, log: FastifyBaseLogger, input: CreateInput): Promise<CreatedPatientLink> {
  const token = newToken();
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    // A patient who closed their account asked for nothing more to be sent (decision 0036).
    if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
    if (input.appointmentId) {
      const appointment = await findVisibleAppointment(tx, ctx, input.appointmentId);
      if (appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
    }
    let title: LocalizedText;
    if (input.customFormId) {
      const [form] = await tx
        .select({ id: customForms.id, archivedAt: customForms.archivedAt })
        .from(customForms)
        .where(and(eq(customForms.id, input.customFormId), eq(customForms.instanceId, ctx.instanceId)));
      if (!form) throw notFound('customFormNotFound');
      if (form.archivedAt) throw fieldError('customFormId', 'invalid', 'formArchived');
      title = (await loadForm(tx, { instanceId: ctx.instanceId, formCode: null, customFormId: form.id })).title;
    } else {
      title = instrumentTitle(input.formCode!);
      await requireFormsWorded(tx, ctx.instanceId, [input.formCode], 'formCode');
    }
    if (input.send === 'email' && !patient.email) {
      throw fieldError('send', 'patientEmailMissing');
    }
    // The patient's choice not to get email, and the clinic's switch for email, both hold here too.
    if (input.send === 'email' && !patient.enableEmail) {
      throw fieldError('send', 'patientEmailOff');
    }
    if (input.send === 'email' && !isOn(await readSettings(tx, ctx.instanceId), 'enableEmail')) {
      throw fieldError('send', 'clinicEmailOff');
    }
    const language = input.language ?? patient.preferredLanguage;
    const [row] = await tx
      .insert(patientLinks)
      .values({
        instanceId: ctx.instanceId,
        patientId: patient.id,
        appointmentId: input.appointmentId ?? null,
        formCode: input.customFormId ? null : input.formCode!,
        customFormId: input.customFormId ?? null,
        tokenHash: sha256(token),
        language,
        expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
        createdBy: ctx.actor.userId,
      })
      .returning();
    const link = row!;
    const path =
      link.formCode !== null && isFormCode(link.formCode)
        ? instrumentPath(link.formCode, token, link.appointmentId)
        : customFormPath(token);
    const url = publicLink(ctx.config, path);
    await recordActivity(tx, activity(ctx, 'Created', link.id, `Link for patient ${patient.id}: ${title.en}`));
    if (input.send === 'email') {
      const content = linkEmail(language, {
        firstName: patient.firstName,
        clinicName: await clinicDisplayName(tx, ctx.instanceId),
        formTitle: titleIn(title, language),
        url,
        expiresAt: link.expiresAt,
        timeZone: await clinicTimeZone(tx, ctx.instanceId),
      });
      await queueMessage(ctx, tx, {
        instanceId: ctx.instanceId,
        channel: 'email',
        to: patient.email!,
        template: 'patient-link',
        patientId: patient.id,
        subject: content.subject,
        body: content.body,
      });
      await recordActivity(tx, activity(ctx, 'Sent', link.id, `Emailed the link to patient ${patient.id}`));
    }
    return { ...toPatientLink(link, title.en, null), token, url };
  });
}

export async function listLinks(ctx: SignedInContext, patientId: string): Promise<PatientLink[]> {
  await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select({ link: patientLinks, responseId: formResponses.id, customTitle: customForms.title })
    .from(patientLinks)
    .leftJoin(
      formResponses,
      and(
        eq(formResponses.linkId, patientLinks.id),
        eq(formResponses.instanceId, patientLinks.instanceId),
        eq(patientLinks.kind, 'form'),
      ),
    )
    .leftJoin(customForms, eq(customForms.id, patientLinks.customFormId))
    .where(and(eq(patientLinks.instanceId, ctx.instanceId), eq(patientLinks.patientId, patientId)))
    .orderBy(desc(patientLinks.createdAt), desc(patientLinks.id));
  const now = new Date();
  return rows.map(({ link, responseId, customTitle }) =>
    toPatientLink(
      link,
      link.kind === 'intake'
        ? INTAKE_LINK_TITLE.en
        : link.kind === 'painJournal'
          ? PAIN_JOURNAL_LINK_TITLE.en
          : link.formCode !== null
            ? instrumentTitle(link.formCode).en
            : (customTitle ?? ''),
      responseId,
      now,
    ),
  );
}

/** Revoking a finished link changes nothing: its response stays. */
export async function revokeLink(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(patientLinks)
      .where(and(eq(patientLinks.id, id), eq(patientLinks.instanceId, ctx.instanceId)))
      .for('update');
    if (!link) throw notFound('linkNotFound');
    await findVisiblePatient(ctx, tx, link.patientId);
    if (link.completedAt || link.revokedAt) return;
    await tx
      .update(patientLinks)
      .set({ revokedAt: new Date(), accessTokenHash: null, accessExpiresAt: null })
      .where(eq(patientLinks.id, link.id));
    await tx.delete(formDrafts).where(eq(formDrafts.linkId, link.id));
    await recordActivity(tx, activity(ctx, 'Deleted', link.id, `Revoked the link of patient ${link.patientId}`));
  });
}

// ---- patient side (open) -----------------------------------------------------------------------------

/**
 * An open link route starts with no clinic. The link's clinic is read by the token's hash through the
 * 'patient-link-token' door; from then on the request sees that clinic's rows only. An unknown token
 * leaves it with none, and the lookups below answer 404.
 */
export async function enterLinkClinic(ctx: ServiceContext, token: string): Promise<ServiceContext> {
  if (!LINK_TOKEN_PATTERN.test(token)) return ctx;
  const [link] = await withSystemContext(ctx, 'patient-link-token', (system) =>
    system.db
      .select({ instanceId: patientLinks.instanceId })
      .from(patientLinks)
      .where(eq(patientLinks.tokenHash, sha256(token))),
  );
  return link ? enterClinicOf(ctx, link.instanceId) : ctx;
}

/**
 * The links a patient opens with the identity check. A close-account confirmation link is not one of
 * them: it only confirms the closure it was emailed for (close-account.service.ts).
 */
const identityLinkKinds: readonly LinkRow['kind'][] = ['form', 'intake', 'consent'];

export async function findLink(
  db: Database,
  token: string,
  forUpdate = false,
  kinds: readonly LinkRow['kind'][] = identityLinkKinds,
): Promise<LinkRow> {
  if (!LINK_TOKEN_PATTERN.test(token)) throw linkNotFound();
  const query = db
    .select()
    .from(patientLinks)
    .where(eq(patientLinks.tokenHash, sha256(token)));
  const [link] = forUpdate ? await query.for('update') : await query;
  if (!link || !kinds.includes(link.kind)) throw linkNotFound();
  return link;
}

export async function findLinkPatient(db: Database, link: LinkRow) {
  const [patient] = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      dateOfBirth: patients.dateOfBirth,
    })
    .from(patients)
    .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
  // A patient removed since the link was sent: the link leads nowhere.
  if (!patient) throw linkNotFound();
  return patient;
}

/** The access token must be the one issued for THIS link, and still fresh. */
export function requireAccess(link: LinkRow, bearer: string | undefined, now = new Date()) {
  if (!bearer || !link.accessTokenHash || !link.accessExpiresAt) throw noAccess();
  if (!sameHash(link.accessTokenHash, sha256(bearer))) throw noAccess();
  if (link.accessExpiresAt.getTime() <= now.getTime()) throw noAccess();
}

/** Open links only; a lock matters to identity checks, not to a patient already verified. */
export function requireOpen(link: LinkRow, now = new Date()) {
  const status = linkStatusOf(link, now);
  if (status !== 'active' && status !== 'locked') throw gone(status);
}

export const accessExpiry = (now = new Date()) => new Date(now.getTime() + LINK_ACCESS_MINUTES * MINUTE_MS);

/** The patient has no user account: the row names no actor, the link or response is the target. */
export const patientActivity = (
  ctx: ServiceContext,
  link: Pick<LinkRow, 'instanceId'>,
  area: 'Patient Sign-In' | 'Form Submission' | 'Intake Information' | 'Checkins' | 'Patient Profile',
  action: 'Created' | 'Updated' | 'Failed',
  target: { type: string; id: string; description: string },
) => ({
  instanceId: link.instanceId,
  actorUserId: null,
  actorEmail: null,
  area,
  action,
  targetType: target.type,
  targetId: target.id,
  description: target.description,
  ip: ctx.ip,
});

/**
 * A link's status at the identity check. A finished intake stays open on its visit's day (clinic time)
 * while the clinic offers check-in and the visit is not past check-in, so a patient who did the
 * paperwork at home checks in with the same link on arrival (issue 24 §5); the intake itself stays
 * read-only (intake.service.ts).
 */
export async function identityStatus(db: Database, link: LinkRow, now = new Date()): Promise<LinkStatus> {
  const status = linkStatusOf(link, now);
  if (status !== 'completed' || link.kind !== 'intake' || !link.appointmentId) return status;
  if (link.revokedAt || link.expiresAt.getTime() <= now.getTime()) return status;
  if (link.lockedUntil && link.lockedUntil.getTime() > now.getTime()) return 'locked';
  return (await checkInOpenFor(db, link, now)) ? 'active' : status;
}

async function checkInOpenFor(db: Database, link: LinkRow, now: Date) {
  const [visit] = await db
    .select({ startsAt: appointments.startsAt, status: appointments.status })
    .from(appointments)
    .where(
      and(eq(appointments.id, link.appointmentId!), eq(appointments.instanceId, link.instanceId), isNull(appointments.deletedAt)),
    );
  if (!visit) return false;
  if (visit.status !== AppointmentStatus.Upcoming && visit.status !== AppointmentStatus.Checking_In) return false;
  const settings = await readSettings(db, link.instanceId);
  if (!isOn(settings, 'enablePatientSelfCheckin') && !isOn(settings, 'enableHomeCheckin')) return false;
  const timeZone = clinicTimeZoneFrom(settings);
  return clinicIsoDate(visit.startsAt, timeZone) === clinicIsoDate(now, timeZone);
}

export async function linkStatus(ctx: ServiceContext, token: string): Promise<LinkStatusResponse> {
  const link = await findLink(ctx.db, token);
  await findLinkPatient(ctx.db, link);
  const loaded =
    link.kind === 'intake'
      ? { languages: [...formLanguages], title: INTAKE_LINK_TITLE, available: true }
      : link.kind === 'consent'
        ? { languages: [...formLanguages], title: CONSENT_LINK_TITLE, available: true }
        : await loadForm(ctx.db, link).then(({ form, title, available }) => ({ languages: form.languages, title, available }));
  const { languages, title } = loaded;
  return {
    status: await identityStatus(ctx.db, link),
    clinicName: await clinicDisplayName(ctx.db, link.instanceId),
    formTitle: title.es ? { en: title.en, es: title.es } : { en: title.en },
    languages,
    suggestedLanguage: link.language ?? 'en',
    // Before the identity check on purpose: the page says the clinic will call, and asks for nothing.
    ...(loaded.available ? {} : { formUnavailable: true }),
  };
}

/** A wrong identity answer or code, counted by the one lockout policy (identity-check.ts). */
async function recordIdentityFailure(ctx: ServiceContext, tx: Database, link: LinkRow, what: string, now: Date) {
  const failure = nextIdentityFailure(link.verifyFailures, now, link.expiresAt);
  await tx
    .update(patientLinks)
    .set(
      failure.lockedUntil
        ? { verifyFailures: failure.failures, lockedUntil: failure.lockedUntil }
        : { verifyFailures: failure.failures },
    )
    .where(eq(patientLinks.id, link.id));
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Patient Sign-In', 'Failed', {
      type: LINK_TARGET,
      id: link.id,
      description: identityFailureText(what, failure),
    }),
  );
  return failure;
}

/** The identity is confirmed: a fresh access token for this link, and the failures forgotten. */
async function grantAccess(ctx: ServiceContext, tx: Database, link: LinkRow, accessToken: string, how: string, now: Date) {
  const expiresAt = accessExpiry(now);
  await tx
    .update(patientLinks)
    .set({
      verifyFailures: 0,
      lockedUntil: null,
      accessTokenHash: sha256(accessToken),
      accessExpiresAt: expiresAt,
      emailCodeHash: null,
      emailCodeExpiresAt: null,
      emailCodeAttempts: 0,
      // The survey report's "opened" (decision 0047): the patient, not a mail scanner, got in.
      openedAt: sql`coalesce(${patientLinks.openedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(patientLinks.id, link.id));
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Patient Sign-In', 'Created', { type: LINK_TARGET, id: link.id, description: how }),
  );
  return expiresAt;
}

export async function verifyLink(ctx: ServiceContext, token: string, input: VerifyLink) {
  const accessToken = newToken();
  const outcome = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const now = new Date();
    const status = await identityStatus(tx, link, now);
    if (status === 'locked') return { kind: 'locked' as const, until: link.lockedUntil! };
    if (status !== 'active') return { kind: 'gone' as const, status };
    const patient = await findLinkPatient(tx, link);
    if (!identityMatches(patient, input)) {
      const failure = await recordIdentityFailure(ctx, tx, link, 'Identity', now);
      return failure.lockedUntil
        ? { kind: 'locked' as const, until: failure.lockedUntil }
        : { kind: 'mismatch' as const, attemptsLeft: failure.attemptsLeft };
    }
    const expiresAt = await grantAccess(ctx, tx, link, accessToken, 'Patient confirmed identity on a form link', now);
    return { kind: 'ok' as const, expiresAt };
  });
  if (outcome.kind === 'gone') throw gone(outcome.status);
  if (outcome.kind === 'locked') throw identityLocked(outcome.until, new Date());
  if (outcome.kind === 'mismatch') throw identityMismatch(outcome.attemptsLeft);
  return { accessToken, expiresAt: outcome.expiresAt.toISOString() };
}

/** a***@example.com: the first letter and the domain. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

const codeHash = (linkId: string, code: string) => sha256(`${linkId}:${code}`);

/**
 * Instead of last name and date of birth, the patient asks for a 6-digit code at the email the clinic
 * has on file (decision 0035). One code at a time, good for LINK_EMAIL_CODE_MINUTES and once; a new one
 * no sooner than LINK_EMAIL_CODE_RESEND_SECONDS after the last, at most LINK_EMAIL_CODE_MAX_SENDS per link.
 */
export async function sendEmailCode(ctx: ServiceContext, token: string): Promise<EmailCodeSent> {
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const status = await identityStatus(tx, link);
    if (status === 'locked') throw identityLocked(link.lockedUntil!, new Date());
    if (status !== 'active') throw gone(status);
    const [patient] = await tx
      .select({ firstName: patients.firstName, email: patients.email, preferredLanguage: patients.preferredLanguage })
      .from(patients)
      .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
    if (!patient) throw linkNotFound();
    if (!patient.email) throw new AppError('CONFLICT', 'noEmailOnFile');
    const now = new Date();
    if (link.emailCodeSentAt) {
      const waited = (now.getTime() - link.emailCodeSentAt.getTime()) / 1000;
      if (waited < LINK_EMAIL_CODE_RESEND_SECONDS) {
        throw new AppError('RATE_LIMITED', 'codeTooSoon', {
          retryAfterSeconds: Math.ceil(LINK_EMAIL_CODE_RESEND_SECONDS - waited),
        });
      }
    }
    if (link.emailCodeSends >= LINK_EMAIL_CODE_MAX_SENDS) throw new AppError('RATE_LIMITED', 'codeTooMany');
    const code = newSixDigitCode();
    await tx
      .update(patientLinks)
      .set({
        emailCodeHash: codeHash(link.id, code),
        emailCodeExpiresAt: new Date(now.getTime() + LINK_EMAIL_CODE_MINUTES * MINUTE_MS),
        emailCodeSentAt: now,
        emailCodeSends: link.emailCodeSends + 1,
        emailCodeAttempts: 0,
      })
      .where(eq(patientLinks.id, link.id));
    const language = link.language ?? patient.preferredLanguage;
    const message = linkCodeEmail(language, { code, clinicName: await clinicDisplayName(tx, link.instanceId) });
    await queueMessage(ctx, tx, {
      instanceId: link.instanceId,
      channel: 'email',
      to: patient.email,
      template: 'link-code',
      // No patientId: the code is how the patient gets in, so it goes even when care emails are off.
      subject: message.subject,
      body: message.body,
    });
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Patient Sign-In', 'Created', {
        type: LINK_TARGET,
        id: link.id,
        description: 'Sign-in code emailed to the patient',
      }),
    );
    return { sentTo: maskEmail(patient.email), expiresInMinutes: LINK_EMAIL_CODE_MINUTES };
  });
}

export async function verifyEmailCode(ctx: ServiceContext, token: string, code: string) {
  const accessToken = newToken();
  const outcome = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    const now = new Date();
    const status = await identityStatus(tx, link, now);
    if (status === 'locked') return { kind: 'locked' as const, until: link.lockedUntil! };
    if (status !== 'active') return { kind: 'gone' as const, status };
    const live = link.emailCodeHash && link.emailCodeExpiresAt && link.emailCodeExpiresAt.getTime() > now.getTime();
    if (!live) return { kind: 'expired' as const };
    if (!sameHash(link.emailCodeHash!, codeHash(link.id, code))) {
      const attempts = link.emailCodeAttempts + 1;
      // A code guessed at too often is spent; the link's own lockout counts these tries too.
      await tx
        .update(patientLinks)
        .set(
          attempts >= LINK_EMAIL_CODE_MAX_ATTEMPTS
            ? { emailCodeAttempts: attempts, emailCodeHash: null, emailCodeExpiresAt: null }
            : { emailCodeAttempts: attempts },
        )
        .where(eq(patientLinks.id, link.id));
      const failure = await recordIdentityFailure(ctx, tx, link, 'Sign-in code', now);
      return failure.lockedUntil
        ? { kind: 'locked' as const, until: failure.lockedUntil }
        : { kind: 'mismatch' as const, attemptsLeft: failure.attemptsLeft };
    }
    const expiresAt = await grantAccess(ctx, tx, link, accessToken, 'Patient confirmed identity with an emailed code', now);
    return { kind: 'ok' as const, expiresAt };
  });
  if (outcome.kind === 'gone') throw gone(outcome.status);
  if (outcome.kind === 'locked') throw identityLocked(outcome.until, new Date());
  if (outcome.kind === 'expired') throw new AppError('VALIDATION', 'codeNotValid', { fields: { code: 'codeExpired' } });
  if (outcome.kind === 'mismatch') throw identityMismatch(outcome.attemptsLeft, 'code');
  return { accessToken, expiresAt: outcome.expiresAt.toISOString() };
}

export async function linkForm(ctx: ServiceContext, token: string, bearer: string | undefined): Promise<LinkForm> {
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    requireOpen(link);
    const patient = await findLinkPatient(tx, link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form } = loaded;
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    const [draft] = await tx.select().from(formDrafts).where(eq(formDrafts.linkId, link.id));
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      form,
      draft: draft ? { answers: draft.answers, position: draft.position, language: draft.language } : null,
    };
  });
}

export function requireLanguage(form: RenderableForm, language: FormLanguage) {
  if (!form.languages.includes(language)) throw fieldError('language', 'invalid', 'formLanguageMissing');
}

export async function saveDraft(ctx: ServiceContext, token: string, bearer: string | undefined, input: Draft): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    requireOpen(link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form } = loaded;
    requireLanguage(form, input.language);
    const answers = keepVisibleAnswers(form, input.answers);
    const values = { answers, position: input.position, language: input.language, updatedAt: new Date() };
    await tx
      .insert(formDrafts)
      .values({ linkId: link.id, instanceId: link.instanceId, ...values })
      .onConflictDoUpdate({ target: formDrafts.linkId, set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
  });
}

/** Instrument answers are numeric codes; anything else cannot reach the scoring. */
function numericAnswers(answers: Answers): Record<string, number | null> {
  const numeric: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value === 'number') numeric[key] = value;
    else if (value === null) numeric[key] = null;
  }
  return numeric;
}

/** A custom screener's total: the chosen options' points, when the form gives any option points at all. */
export function customTotal(form: RenderableForm, answers: Answers): number | null {
  const scored = form.questions.some((question) => question.options?.some((option) => option.score !== undefined));
  if (!scored) return null;
  let total = 0;
  for (const question of visibleQuestions(form, answers)) {
    const answer = answers[question.id];
    if (!question.options || answer === undefined || answer === null) continue;
    const chosen = Array.isArray(answer) ? answer.map(String) : [String(answer as string | number)];
    for (const option of question.options) {
      if (option.score !== undefined && chosen.includes(String(option.value))) total += option.score;
    }
  }
  return total;
}

/**
 * What a submission stores: the answers to visible questions and the server's scores (an instrument's
 * own scoring and headline, or a custom form's points total). Validate with `formProblems` first.
 */
export function scoredAnswers(form: RenderableForm, formCode: number | null, given: Answers) {
  const answers = keepVisibleAnswers(form, given);
  let scores: Scores = {};
  let headlineScore: number | null = null;
  let band: number | null = null;
  if (formCode !== null && isFormCode(formCode)) {
    scores = scoreForm(formCode, numericAnswers(answers));
    const headline = headlineOf(formCode, scores);
    headlineScore = headline.score;
    band = headline.band;
  } else {
    headlineScore = customTotal(form, answers);
    if (headlineScore !== null) scores = { total: headlineScore };
  }
  return { answers, scores, headlineScore, band };
}

export async function submitLink(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  input: SubmitLink,
): Promise<{ replay: boolean; body: { message: string; responseId: string; crisisResources: boolean } }> {
  const answered = (responseId: string, replay: boolean, crisisResources: boolean) => ({
    replay,
    body: { message: FORM_RESPONSE_ADDED, responseId, crisisResources },
  });
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, token, true);
    if (link.kind !== 'form') throw linkNotFound();
    requireAccess(link, bearer);
    const replayed = async (responseId: string) =>
      answered(responseId, true, await responseHasFindings(tx, link.instanceId, responseId));
    const previous = async () => {
      const [row] = await tx
        .select({ id: formResponses.id, linkId: formResponses.linkId })
        .from(formResponses)
        .where(and(eq(formResponses.instanceId, link.instanceId), eq(formResponses.idempotencyKey, input.idempotencyKey)));
      return row;
    };
    const earlier = await previous();
    if (earlier) {
      if (earlier.linkId === link.id) return replayed(earlier.id);
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    requireOpen(link);
    const loaded = await loadForm(tx, link);
    requireAvailable(loaded);
    const { form, customFormVersionId } = loaded;
    requireLanguage(form, input.language);
    const problems = formProblems(form, input.answers);
    if (Object.keys(problems).length > 0) {
      throw new AppError('VALIDATION', 'answersNeedAttention', {
        fields: problems as Record<string, ValidationMessageKey>,
      });
    }
    const { answers, scores, headlineScore, band } = scoredAnswers(form, link.formCode, input.answers);
    const [inserted] = await tx
      .insert(formResponses)
      .values({
        instanceId: link.instanceId,
        patientId: link.patientId,
        appointmentId: link.appointmentId,
        linkId: link.id,
        formCode: link.formCode,
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
    if (!inserted) {
      // Another request with the same key won the race: answer as the retry it is.
      const winner = await previous();
      if (winner?.linkId === link.id) return replayed(winner.id);
      throw gone('completed');
    }
    await tx
      .update(patientLinks)
      .set({ completedAt: sql`now()` })
      .where(eq(patientLinks.id, link.id));
    await tx.delete(formDrafts).where(eq(formDrafts.linkId, link.id));
    const crisisResources = await recordCriticalFindings(ctx, tx, { ...link, id: inserted.id }, answers);
    await notifyIfAppointmentFormsComplete(ctx, tx, link);
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Form Submission', 'Created', {
        type: 'form response',
        id: inserted.id,
        description: `Patient ${link.patientId} submitted ${form.title.en} through a link`,
      }),
    );
    return answered(inserted.id, false, crisisResources);
  });
}
