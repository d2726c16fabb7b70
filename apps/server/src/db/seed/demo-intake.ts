import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, isNull, lt } from 'drizzle-orm';
import { clinicDayStartAfter, clinicTodayStart } from '@pathwell/contracts/clinic-time';
import type { IntakeWorkStep } from '@pathwell/contracts/intake';
import { getInstrument, headlineOf, scoreForm, type InstrumentAnswers } from '@pathwell/instruments';
import { sha256 } from '../../lib/secrets';
import { defaultAgreement } from '../../modules/intake/intake-documents';
import type { Database } from '../client';
import { appointments, formResponses, intakeEntries, patientConsents, patientLinks } from '../schema';
import { AppointmentStatus } from '@pathwell/contracts/enums';

const HOUR = 3_600_000;
// A 1×1 PNG stands in for a signature: demo consents open as PDFs like real ones.
const DEMO_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// The Pain Disability Index ships its wording (decision 0067): a licensed form such as the ODI cannot be
// given in a clinic that has not imported its wording, so the demo never shows one.
const PDI = 4 as const;

/** The paperwork of the demo's new patients: it differs from what their record holds. */
const demoPaperwork = {
  email: 'new.email@example.test',
  streetAddress1: '1200 Lamar Blvd',
  streetAddress2: 'Apt 4',
  city: 'Austin',
  state: 'TX',
  zip: '78703',
  preferredLanguage: 'en',
  phones: [{ type: 'MOBILE', number: '(512) 555-0148' }],
  contacts: [{ role: 'emergency', name: 'Marta Ruiz', relationship: 'Sister', phone: '(512) 555-0149' }],
  selfPay: false,
  primaryInsurance: {
    payer: 'Blue Cross Blue Shield of Texas',
    memberId: 'XJB123456789',
    groupNumber: '0042-7781',
    subscriberName: 'Self',
    relationshipToInsured: 'self',
  },
  secondaryInsurance: { payer: 'Medicare Part B', memberId: '1EG4-TE5-MK72' },
  pharmacy: { name: 'H-E-B Pharmacy Lamar', phone: '(512) 555-0150' },
  extended: { pronouns: 'she/her/hers', communicationPreference: 'text' },
  agreementSignature: { image: DEMO_SIGNATURE, signedAt: '2026-01-01T00:00:00.000Z' },
};
/** Every PDI category rated the same, 0–10: 4 reads 28 of 70, 6 reads 42 (the instruments package scores it). */
const pdiAnswers = (rating: number): InstrumentAnswers =>
  Object.fromEntries(getInstrument(PDI).questions.map((question) => [question.id, rating]));

/**
 * How far each of today's patients got: all done, part way, just opened, or no link yet. The first one
 * also answered the Pain Disability Index, and did an intake at their last visit, so the doctor's one-pager has pain,
 * a body map and a score to compare with.
 */
const progress: {
  done: IntakeWorkStep[];
  map?: Record<string, number>;
  vas?: [number, number, number, number];
  pdi?: number;
  earlier?: { map: Record<string, number>; pdi: number };
}[] = [
  {
    done: [1, 2, 4, 5, 6, 7],
    map: { 'lower-back': 7, 'left-upper-leg': 5, 'left-lower-leg': 4 },
    vas: [6, 5, 3, 8],
    pdi: 4,
    earlier: { map: { 'lower-back': 8, 'left-buttock': 6, 'left-upper-leg-back': 6, 'left-lower-leg-back': 5 }, pdi: 6 },
  },
  { done: [2, 4, 5, 7], map: { neck: 6, 'right-shoulder': 4 }, vas: [5, 5, 2, 7] },
  { done: [2, 4], vas: [8, 7, 5, 9] },
  { done: [] },
  { done: [2, 4, 5, 7], map: { 'lower-back': 3 }, vas: [3, 3, 1, 5] },
];

/**
 * Intake for today's visits in a demo clinic (issue #12): the appointment dashboard shows patients at
 * every stage and the patient dashboard shows answers, a body map and a signed agreement. The tokens are
 * random and thrown away: nobody can open these demo links.
 */
export async function seedDemoIntake(tx: Database, options: { instanceId: string; timeZone: string; now?: Date }) {
  const now = options.now ?? new Date();
  const { instanceId } = options;
  const dayStart = clinicTodayStart(now, options.timeZone);
  const visits = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      reason: appointments.reason,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        gte(appointments.startsAt, dayStart),
        lt(appointments.startsAt, clinicDayStartAfter(dayStart, 1, options.timeZone)),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(progress.length + 1);
  for (const [index, visit] of visits.entries()) {
    const plan = progress[index];
    if (!plan) break;
    // The first patient has no signed agreement on file, so the paperwork is asked of them too (decision 0032).
    const steps: IntakeWorkStep[] = visit.reason === 'new_patient' || index === 0 ? [1, 2, 4, 5, 7] : [2, 4, 5, 7];
    if (plan.pdi !== undefined) steps.splice(steps.indexOf(7), 0, 6);
    const done = plan.done.filter((step) => steps.includes(step));
    const complete = steps.every((step) => done.includes(step));
    const [link] = await tx
      .insert(patientLinks)
      .values({
        instanceId,
        patientId: visit.patientId,
        appointmentId: visit.id,
        kind: 'intake',
        intakePlan: { steps, formCodes: plan.pdi !== undefined ? [PDI] : [], historyFormIds: [], checkInFormIds: [] },
        tokenHash: sha256(randomBytes(32).toString('base64url')),
        language: index % 3 === 1 ? 'es' : 'en',
        expiresAt: new Date(visit.startsAt.getTime() + 12 * HOUR),
        completedAt: complete ? new Date(now.getTime() - (index + 1) * HOUR) : null,
        createdAt: new Date(now.getTime() - 26 * HOUR),
      })
      .returning({ id: patientLinks.id });
    const entry = (step: IntakeWorkStep, data: Record<string, unknown>) => ({
      linkId: link!.id,
      instanceId,
      step,
      data,
      language: 'en' as const,
      completedAt: new Date(now.getTime() - (index + 2) * HOUR),
    });
    const rows = done.flatMap((step) => {
      if (step === 1) {
        // Differs from the record (email, mobile, address; insurance and pharmacy the record lacks), so staff can
        // try accepting answers field by field (issue #24 §4).
        return [entry(1, demoPaperwork)];
      }
      if (step === 2) {
        return [
          entry(2, {
            noKnownAllergies: index % 2 === 0,
            allergies: index % 2 === 0 ? [] : [{ name: 'Penicillin' }],
            medications: [
              { name: 'Meloxicam', dose: '15 mg', frequency: 'once a day' },
              ...(index === 0 ? [{ name: 'Oxycodone', dose: '5 mg', frequency: 'every 6 hours as needed' }] : []),
            ],
          }),
        ];
      }
      if (step === 4 && plan.vas) {
        const [current, average, best, worst] = plan.vas;
        return [entry(4, { current, average, best, worst })];
      }
      if (step === 5 && plan.map) return [entry(5, { regions: plan.map })];
      if (step === 7) return [entry(7, { method: 'desk' })];
      return [];
    });
    if (rows.length > 0) await tx.insert(intakeEntries).values(rows);
    if (done.includes(6) && plan.pdi !== undefined) {
      const submittedAt = new Date(now.getTime() - (index + 2) * HOUR);
      const responseId = await insertPdi(tx, instanceId, visit, plan.pdi, submittedAt);
      await tx.insert(intakeEntries).values({ ...entry(6, {}), formKey: `pro-${PDI}`, responseId });
    }
    if (plan.earlier && plan.vas) await seedEarlierIntake(tx, instanceId, visit.patientId, dayStart, plan.earlier, plan.vas);
    if (done.includes(4) && plan.vas) {
      await tx.update(appointments).set({ painScore: plan.vas[0] }).where(eq(appointments.id, visit.id));
    }
    if (done.includes(1)) {
      const signedAt = new Date(now.getTime() - (index + 2) * HOUR);
      await tx.insert(patientConsents).values({
        instanceId,
        patientId: visit.patientId,
        appointmentId: visit.id,
        linkId: link!.id,
        kind: 'newPatientAgreement',
        title: defaultAgreement.title.en,
        documentText: defaultAgreement.text.en,
        documentVersion: 'sha256:demo',
        language: 'en',
        signatureImage: DEMO_SIGNATURE,
        signedAt,
        expiresAt: new Date(signedAt.getTime() + 365 * 24 * HOUR),
      });
    }
  }
}

async function insertPdi(
  tx: Database,
  instanceId: string,
  visit: { id: string; patientId: string },
  rating: number,
  submittedAt: Date,
): Promise<string> {
  const answers = pdiAnswers(rating);
  const scores = scoreForm(PDI, answers);
  const headline = headlineOf(PDI, scores);
  const [row] = await tx
    .insert(formResponses)
    .values({
      id: randomUUID(),
      instanceId,
      patientId: visit.patientId,
      appointmentId: visit.id,
      formCode: PDI,
      version: getInstrument(PDI).version,
      language: 'en',
      answers: answers as Record<string, number>,
      scores,
      headlineScore: headline.score,
      band: headline.band,
      idempotencyKey: randomUUID(),
      submittedAt,
    })
    .returning({ id: formResponses.id });
  return row!.id;
}

/**
 * A finished intake at the patient's last completed visit: pain (its "now" is the visit's recorded
 * score), a wider body map and the PDI, kept when the visit already has one.
 */
async function seedEarlierIntake(
  tx: Database,
  instanceId: string,
  patientId: string,
  before: Date,
  earlier: { map: Record<string, number>; pdi: number },
  today: [number, number, number, number],
) {
  const [visit] = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      painScore: appointments.painScore,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.instanceId, instanceId),
        eq(appointments.patientId, patientId),
        eq(appointments.status, AppointmentStatus.Completed),
        lt(appointments.startsAt, before),
        isNull(appointments.deletedAt),
      ),
    )
    .orderBy(desc(appointments.startsAt))
    .limit(1);
  if (!visit) return;
  const start = visit.startsAt.getTime();
  const [link] = await tx
    .insert(patientLinks)
    .values({
      instanceId,
      patientId,
      appointmentId: visit.id,
      kind: 'intake',
      intakePlan: { steps: [4, 5, 6], formCodes: [PDI], historyFormIds: [], checkInFormIds: [] },
      tokenHash: sha256(randomBytes(32).toString('base64url')),
      language: 'en',
      expiresAt: new Date(start + 12 * HOUR),
      completedAt: new Date(start - HOUR),
      createdAt: new Date(start - 26 * HOUR),
    })
    .returning({ id: patientLinks.id });
  const [existing] = await tx
    .select({ id: formResponses.id })
    .from(formResponses)
    .where(
      and(eq(formResponses.instanceId, instanceId), eq(formResponses.appointmentId, visit.id), eq(formResponses.formCode, PDI)),
    )
    .limit(1);
  const responseId = existing?.id ?? (await insertPdi(tx, instanceId, visit, earlier.pdi, new Date(start - 2 * HOUR)));
  const current = visit.painScore ?? Math.min(10, today[0] + 2);
  const completedAt = new Date(start - 2 * HOUR);
  const entry = { linkId: link!.id, instanceId, language: 'en' as const, completedAt };
  await tx.insert(intakeEntries).values([
    {
      ...entry,
      step: 4,
      data: { current, average: current, best: Math.max(0, current - 3), worst: Math.min(10, current + 2) },
    },
    { ...entry, step: 5, data: { regions: earlier.map } },
    { ...entry, step: 6, formKey: `pro-${PDI}`, data: {}, responseId },
  ]);
}
