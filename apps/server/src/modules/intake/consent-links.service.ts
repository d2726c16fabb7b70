import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  CONSENT_LINK_DAYS,
  type ConsentDocument,
  type ConsentLinkView,
  type CreatedConsentLink,
  type PatientConsents,
  type SignableConsentKind,
  type SignConsent,
} from '@pathwell/contracts/consent-links';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import type { FormLanguage, LocalizedText } from '@pathwell/contracts/forms';
import type { z } from 'zod';
import type { createConsentLinkSchema } from '@pathwell/contracts/consent-links';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { patientConsents, patientLinks, patients } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { newToken, sha256 } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { queuePatientMessage } from '../outbox/outbox.service';
import {
  findLink,
  linkNotFound,
  linkStatusOf,
  patientActivity,
  requireAccess,
  requireOpen,
} from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import {
  clinicTimeZone,
  clinicTimeZoneFrom,
  isOn,
  numberSetting,
  readSettings,
  type SettingsMap,
} from '../settings/settings.service';
import { messageDate } from '@pathwell/contracts/message-dates';
import { isDrawableSignature } from '../../lib/signed-pdf';
import { defaultAgreement, defaultShotConsent } from './intake-documents';
import { agreementFile, agreementVersion } from './intake-agreement';
import { toConsent } from './patient-intakes.service';
import { mobileOf } from '../patient-contact/reach.service';
import { publicLink } from '../../lib/public-url';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

const DAY_MS = 86_400_000;
type LinkRow = typeof patientLinks.$inferSelect;

const shotConsentOn = (settings: SettingsMap) =>
  isOn(settings, 'enableShotConsent') && isOn(settings, 'enableDigitalShotConsent');

/** The injection consent in the clinic's words where it wrote them, Pathwell's default where not. */
function shotConsentText(settings: SettingsMap): LocalizedText {
  const own = (language: FormLanguage) => String(settings[language === 'es' ? 'shotConsentEs' : 'shotConsentEn'] ?? '').trim();
  return { en: own('en') || defaultShotConsent.text.en, es: own('es') || defaultShotConsent.text.es! };
}

const versionOf = (parts: unknown) => `sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16)}`;

/** What the patient reads and signs, and the version that pins it. */
async function documentFor(db: Database, settings: SettingsMap, instanceId: string, kind: SignableConsentKind, token: string) {
  if (kind === 'shotConsent') {
    const text = shotConsentText(settings);
    return {
      kind,
      title: defaultShotConsent.title,
      text,
      version: versionOf({ title: defaultShotConsent.title, text }),
      fileUrl: null,
    };
  }
  return {
    kind,
    title: defaultAgreement.title,
    text: defaultAgreement.text,
    version: await agreementVersion(db, instanceId),
    fileUrl: (await agreementFile(db, instanceId, 'en')) ? `/api/consent-links/${token}/agreement` : null,
  };
}

function consentMessage(
  language: FormLanguage,
  input: { firstName: string; clinicName: string; url: string; until: Date; timeZone: string },
) {
  const until = messageDate(input.until, input.timeZone, language);
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: un consentimiento para firmar`,
      emailBody:
        `Hola, ${input.firstName}:\n\n` +
        `${input.clinicName} le pide que lea y firme un consentimiento desde su teléfono (enlace válido hasta el ${until}):\n` +
        `${input.url}\n\n` +
        'Antes le pediremos su apellido y su fecha de nacimiento.\nSi no esperaba este mensaje, puede ignorarlo.',
      smsBody: `${input.clinicName}: lea y firme su consentimiento: ${input.url} Responda PARAR para no recibir mensajes.`,
    };
  }
  return {
    subject: `${input.clinicName}: a consent to sign`,
    emailBody:
      `Hello ${input.firstName},\n\n` +
      `${input.clinicName} asks you to read and sign a consent from your phone (link good until ${until}):\n` +
      `${input.url}\n\n` +
      'Before it opens we will ask for your last name and date of birth.\nIf you were not expecting this message, you can ignore it.',
    smsBody: `${input.clinicName}: please read and sign your consent: ${input.url} Reply STOP to opt out.`,
  };
}

const consentLinkPath = (token: string, kinds: readonly SignableConsentKind[]) =>
  `/patients/${kinds.includes('shotConsent') ? 'digitalconsentform' : 'resignconsent'}/${token}`;

/**
 * Staff send consents to sign on their own (decision 0036): the injection consent when the clinic signs
 * it digitally, or an expired agreement to sign again. An unfinished consent link of the patient for the
 * same consents is replaced, as an intake link is.
 */
export async function createConsentLink(
  ctx: SignedInContext,
  input: z.output<typeof createConsentLinkSchema>,
): Promise<CreatedConsentLink> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, input.patientId);
    if (input.appointmentId) {
      const appointment = await findVisibleAppointment(tx, ctx, input.appointmentId);
      if (appointment.patientId !== patient.id) throw notFound('appointmentNotFound');
    }
    const settings = await readSettings(tx, ctx.instanceId);
    const kinds = [...new Set(input.kinds)];
    if (kinds.includes('shotConsent') && !shotConsentOn(settings)) throw fieldError('kinds', 'featureOff');
    if (patient.accountClosedAt) throw new AppError('CONFLICT', 'accountClosed');
    const mobile = input.send.includes('sms') ? await mobileOf(tx, ctx.instanceId, patient.id) : null;
    if (input.send.includes('email') && !patient.email) throw fieldError('send', 'patientEmailMissing');
    if (input.send.includes('sms') && !mobile) throw fieldError('send', 'phoneRequired');

    const now = new Date();
    await tx
      .update(patientLinks)
      .set({ revokedAt: now, accessTokenHash: null, accessExpiresAt: null })
      .where(
        and(
          eq(patientLinks.instanceId, ctx.instanceId),
          eq(patientLinks.patientId, patient.id),
          eq(patientLinks.kind, 'consent'),
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
        appointmentId: input.appointmentId ?? null,
        kind: 'consent',
        consentKinds: kinds,
        tokenHash: sha256(token),
        language,
        expiresAt: new Date(now.getTime() + CONSENT_LINK_DAYS * DAY_MS),
        createdBy: ctx.actor.userId,
      })
      .returning();
    const url = publicLink(ctx.config, consentLinkPath(token, kinds));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Intake Information', 'Created', {
        type: 'patient link',
        id: link!.id,
        description: `Consent link (${kinds.join(', ')}) for patient ${patient.id}`,
      }),
    );
    const message = consentMessage(language, {
      firstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, ctx.instanceId),
      url,
      until: link!.expiresAt,
      timeZone: await clinicTimeZone(tx, ctx.instanceId),
    });
    const sent = (
      await queuePatientMessage(ctx, tx, {
        instanceId: ctx.instanceId,
        patientId: patient.id,
        channels: input.send,
        to: { email: patient.email, mobile },
        template: 'consent',
        message,
        onQueued: (channel) =>
          recordActivity(
            tx,
            staffActivity(ctx, 'Intake Information', 'Sent', {
              type: 'patient link',
              id: link!.id,
              description: `Consent link sent to patient ${patient.id} by ${channel}`,
            }),
          ),
      })
    ).filter((entry) => entry.status !== 'notSent');
    return { linkId: link!.id, url, expiresAt: link!.expiresAt.toISOString(), sent };
  });
}

async function findConsentLink(
  db: Database,
  token: string,
  forUpdate = false,
): Promise<LinkRow & { consentKinds: SignableConsentKind[] }> {
  const link = await findLink(db, token, forUpdate, ['consent']);
  if (!link.consentKinds?.length) throw linkNotFound();
  return link as LinkRow & { consentKinds: SignableConsentKind[] };
}

async function signedKinds(db: Database, linkId: string) {
  const rows = await db.select({ kind: patientConsents.kind }).from(patientConsents).where(eq(patientConsents.linkId, linkId));
  return new Set(rows.map((row) => row.kind));
}

/** The consents of the link, each with its text and whether it is signed; read-only once all are. */
export async function consentLinkView(ctx: ServiceContext, token: string, bearer: string | undefined): Promise<ConsentLinkView> {
  const link = await findConsentLink(ctx.db, token);
  requireAccess(link, bearer);
  if (linkStatusOf(link) !== 'completed') requireOpen(link);
  const settings = await readSettings(ctx.db, link.instanceId);
  const signed = await signedKinds(ctx.db, link.id);
  const [patient] = await ctx.db
    .select({ firstName: patients.firstName })
    .from(patients)
    .where(and(eq(patients.instanceId, link.instanceId), eq(patients.id, link.patientId)));
  const documents: ConsentDocument[] = [];
  for (const kind of link.consentKinds) {
    documents.push({ ...(await documentFor(ctx.db, settings, link.instanceId, kind, token)), signed: signed.has(kind) });
  }
  return {
    patientFirstName: patient?.firstName ?? '',
    clinicName: await clinicDisplayName(ctx.db, link.instanceId),
    documents,
    completedAt: link.completedAt?.toISOString() ?? null,
  };
}

/**
 * One signature: stored with the exact text in the language the patient read, the version and when it
 * lapses (`consentExpiration`). Signing again is harmless (one per consent and link). The link is done
 * once every consent on it is signed.
 */
export async function signConsent(ctx: ServiceContext, token: string, bearer: string | undefined, input: SignConsent) {
  return ctx.db.transaction(async (tx) => {
    const link = await findConsentLink(tx, token, true);
    requireAccess(link, bearer);
    requireOpen(link);
    if (!link.consentKinds.includes(input.kind)) throw fieldError('kind', 'invalid');
    if (!isDrawableSignature(input.signature.image)) throw fieldError('signature', 'signatureInvalid');
    const settings = await readSettings(tx, link.instanceId);
    const document = await documentFor(tx, settings, link.instanceId, input.kind, token);
    const now = new Date();
    const days = numberSetting(settings, 'consentExpiration');
    const inserted = await tx
      .insert(patientConsents)
      .values({
        instanceId: link.instanceId,
        patientId: link.patientId,
        appointmentId: link.appointmentId,
        linkId: link.id,
        kind: input.kind,
        title: document.title[input.language] ?? document.title.en,
        documentText: document.text[input.language] ?? document.text.en,
        documentVersion: document.version,
        language: input.language,
        signatureImage: input.signature.image,
        signedAt: new Date(input.signature.signedAt),
        expiresAt: days ? new Date(now.getTime() + days * DAY_MS) : null,
      })
      .onConflictDoNothing()
      .returning({ id: patientConsents.id });
    if (inserted.length > 0) {
      if (input.kind === 'newPatientAgreement') {
        await tx
          .update(patients)
          .set({ agreementSignedDate: clinicIsoDate(now, clinicTimeZoneFrom(settings)), updatedAt: now })
          .where(and(eq(patients.instanceId, link.instanceId), eq(patients.id, link.patientId)));
      }
      await recordActivity(
        tx,
        patientActivity(ctx, link, 'Intake Information', 'Updated', {
          type: 'patient consent',
          id: inserted[0]!.id,
          description: `Patient signed the ${input.kind === 'shotConsent' ? 'injection consent' : 'new-patient agreement'} from a consent link`,
        }),
      );
    }
    const signed = await signedKinds(tx, link.id);
    const completed = link.consentKinds.every((kind) => signed.has(kind));
    if (completed && !link.completedAt) {
      await tx.update(patientLinks).set({ completedAt: now }).where(eq(patientLinks.id, link.id));
    }
    return { signed: true, completed };
  });
}

/** The clinic's agreement PDF for a re-sign link, as the intake serves it. */
export async function consentAgreementPdf(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  language: FormLanguage,
) {
  const link = await findConsentLink(ctx.db, token);
  requireAccess(link, bearer);
  if (!link.consentKinds.includes('newPatientAgreement')) throw linkNotFound();
  const file = await agreementFile(ctx.db, link.instanceId, language);
  if (!file) throw linkNotFound();
  return file.content;
}

/** The consents panel of the patient dashboard. */
export async function patientConsentsOf(ctx: SignedInContext, patientId: string): Promise<PatientConsents> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const rows = await ctx.db
    .select()
    .from(patientConsents)
    .where(and(eq(patientConsents.instanceId, ctx.instanceId), eq(patientConsents.patientId, patient.id)))
    .orderBy(desc(patientConsents.signedAt))
    .limit(200);
  const now = new Date();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!latest.has(row.kind)) latest.set(row.kind, row);
  const pending = await ctx.db
    .select({
      id: patientLinks.id,
      kinds: patientLinks.consentKinds,
      createdAt: patientLinks.createdAt,
      expiresAt: patientLinks.expiresAt,
    })
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, ctx.instanceId),
        eq(patientLinks.patientId, patient.id),
        eq(patientLinks.kind, 'consent'),
        isNull(patientLinks.completedAt),
        isNull(patientLinks.revokedAt),
        gt(patientLinks.expiresAt, now),
      ),
    )
    .orderBy(desc(patientLinks.createdAt))
    .limit(10);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Intake Information', 'Viewed', { type: 'patient', id: patient.id, description: 'Consents viewed' }),
  );
  return {
    latest: [...latest.values()].map((row) => toConsent(row, now)),
    shotConsentEnabled: shotConsentOn(settings),
    pending: pending.map((row) => ({
      linkId: row.id,
      kinds: row.kinds ?? [],
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
  };
}
