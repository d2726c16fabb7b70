import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { clinicMdy, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import type { Consent, StaffIntake } from '@pathwell/contracts/intake';
import type { SignedInContext } from '../../context';
import { appointments, formResponses, intakeEntries, patientConsents, patientLinks } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZoneFrom, readSettings } from '../settings/settings.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { renderConsentPdf } from './consent-pdf';
import { intakeActivity } from './intake-plans.service';
import { intakeForms, previousBodyMap, savedAnswers, stepStates } from './intake-progress';
import { cardPhotosOf } from './insurance-cards.service';

/* A patient's intakes as staff see them, with the consents signed in them and a consent's PDF. */

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
  await recordActivity(ctx.db, intakeActivity(ctx, 'Viewed', patientId, `Viewed the intake of patient ${patientId}`));
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
    intakeActivity(ctx, 'Viewed', consent.id, `Opened the ${consent.kind} consent PDF of patient ${patient.id}`),
  );
  return { pdf, fileName: `${consent.kind}-${clinicMdy(consent.signedAt, timeZone).replaceAll('/', '-')}.pdf` };
}
