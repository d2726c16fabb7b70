import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { clinicDayStartAfter, clinicTodayStart } from '@pathwell/contracts/clinic-time';
import type { IntakeWorkStep } from '@pathwell/contracts/intake';
import { sha256 } from '../../lib/secrets';
import { defaultAgreement } from '../../modules/intake/intake-documents';
import type { Database } from '../client';
import { appointments, intakeEntries, patientConsents, patientLinks } from '../schema';

const HOUR = 3_600_000;
// A 1×1 PNG stands in for a signature: demo consents open as PDFs like real ones.
const DEMO_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** How far each of today's patients got: all done, part way, just opened, or no link yet. */
const progress: { done: IntakeWorkStep[]; map?: Record<string, number>; vas?: [number, number, number, number] }[] = [
  { done: [1, 2, 4, 5, 7], map: { 'lower-back': 7, 'left-upper-leg': 5, 'left-lower-leg': 4 }, vas: [6, 5, 3, 8] },
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
    const steps: IntakeWorkStep[] = visit.reason === 'new_patient' ? [1, 2, 4, 5, 7] : [2, 4, 5, 7];
    const done = plan.done.filter((step) => steps.includes(step));
    const complete = steps.every((step) => done.includes(step));
    const [link] = await tx
      .insert(patientLinks)
      .values({
        instanceId,
        patientId: visit.patientId,
        appointmentId: visit.id,
        kind: 'intake',
        intakePlan: { steps, formCodes: [], historyFormIds: [], checkInFormIds: [] },
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
        return [entry(1, { streetAddress1: '1200 Lamar Blvd', city: 'Austin', state: 'TX', zip: '78703', selfPay: true })];
      }
      if (step === 2) {
        return [
          entry(2, {
            noKnownAllergies: index % 2 === 0,
            allergies: index % 2 === 0 ? [] : [{ name: 'Penicillin' }],
            medications: [{ name: 'Meloxicam', dose: '15 mg', frequency: 'once a day' }],
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
