import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { getInstrument, headlineOf, scoreForm, type FormCode } from '@pathwell/instruments';
import type { Database } from '../client';
import { sha256 } from '../../lib/secrets';
import {
  formResponses,
  interventions,
  managedItems,
  pathwayEnrolments,
  pathways,
  pathwayStepRuns,
  pathwaySteps,
  patientLinks,
  plannedProcedures,
} from '../schema';
import { DEMO_LUMBAR_TFESI, DEMO_SCS_IMPLANT, DEMO_SCS_TRIAL } from './demo-care';

const DAY_MS = 86_400_000;
// Forms that ship their wording (decision 0067): a licensed form (ODI, NDI, PROMIS Global-10, SOAPP-R) is
// skipped in a clinic that has not imported its wording, so the examples use none.
const PDI: FormCode = 4;
const VR12: FormCode = 8;
export const EXAMPLE_NOTICE = "Example pathway — edit to match your clinic's protocol; not clinical advice.";

type StepSeed = {
  dayOffset: number;
  kind: 'pro' | 'painJournal' | 'education' | 'task';
  formCode?: FormCode;
  messageEn?: string;
  messageEs?: string;
};

/*
 * The two example pathways of issue #13. The measures follow the IMMPACT core outcome domains for chronic
 * pain trials — pain intensity, physical functioning, overall status (Dworkin RH et al., Pain
 * 2005;113:9–19): the pain journal (0–10), the Pain Disability Index (Pollard 1984; Tait et al. 1987) and,
 * for stimulation, the VR-12 health survey (overall status). The time points are the
 * ones the issue names as an example; they are not a recommendation, and the clinic edits them.
 */
const followUp = (days: number, forms: FormCode[]): StepSeed[] => [
  ...forms.map((formCode) => ({ dayOffset: days, kind: 'pro' as const, formCode })),
  { dayOffset: days, kind: 'painJournal' as const },
];

const examplePathways: { name: string; items: string[]; description: string; steps: StepSeed[] }[] = [
  {
    name: 'Lumbar epidural steroid injection',
    items: [DEMO_LUMBAR_TFESI, 'Lumbar interlaminar epidural steroid injection'],
    description: `Pain Disability Index and pain at baseline, 2 weeks and 3 months after the injection. ${EXAMPLE_NOTICE}`,
    steps: [
      ...followUp(0, [PDI]),
      {
        dayOffset: 1,
        kind: 'education',
        messageEn: 'Thank you for your visit. If you have questions about your injection, call the clinic.',
        messageEs: 'Gracias por su visita. Si tiene preguntas sobre su inyección, llame a la clínica.',
      },
      ...followUp(14, [PDI]),
      ...followUp(90, [PDI]),
      { dayOffset: 90, kind: 'task', messageEn: 'Review the 3-month Pain Disability Index and pain with the doctor.' },
    ],
  },
  {
    name: 'Spinal cord stimulator trial and implant',
    items: [DEMO_SCS_TRIAL, DEMO_SCS_IMPLANT],
    description: `Pain Disability Index, VR-12 and pain at baseline, 1, 3, 6 and 12 months. ${EXAMPLE_NOTICE}`,
    steps: [0, 30, 91, 182, 365].flatMap((days) => followUp(days, [PDI, VR12])),
  },
];

/** PDI answers (seven categories, 0–10) adding up to `total` (0–70), spread as evenly as the ratings allow. */
function pdiAnswers(total: number): Record<string, number> {
  const questions = getInstrument(PDI).questions;
  const answers: Record<string, number> = {};
  questions.forEach((question, index) => {
    answers[question.id] = Math.min(10, Math.floor(total / questions.length) + (index < total % questions.length ? 1 : 0));
  });
  return answers;
}

/**
 * Riverside's example pathways (isExample), and the demo patients who had the lumbar injection
 * (seedDemoCare runs first) enrolled from the injection's day: steps already due are done, with PDI
 * answers that improve (made-up demo numbers, not clinical data); one 3-month PDI is missed, the last
 * patient's most recent questionnaire is still waiting with a reminder sent; later steps are pending.
 */
export async function seedDemoPathways(tx: Database, options: { instanceId: string; timeZone: string; now?: Date }) {
  const { instanceId, timeZone } = options;
  const now = options.now ?? new Date();
  const items = await tx
    .select({ id: managedItems.id, name: managedItems.name })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        inArray(managedItems.listType, ['interventionalitems:1', 'interventionalitems:2']),
        isNull(managedItems.deletedAt),
      ),
    );
  const created: string[] = [];
  for (const example of examplePathways) {
    const itemIds = example.items
      .map((name) => items.find((item) => item.name === name)?.id)
      .filter((id): id is string => Boolean(id));
    const [row] = await tx
      .insert(pathways)
      .values({
        instanceId,
        name: example.name,
        description: example.description,
        trigger: itemIds.length > 0 ? 'procedure' : 'manual',
        triggerItemIds: itemIds,
        isExample: true,
      })
      .returning({ id: pathways.id });
    await tx.insert(pathwaySteps).values(
      example.steps.map((step, index) => ({
        instanceId,
        pathwayId: row!.id,
        sortOrder: index,
        dayOffset: step.dayOffset,
        kind: step.kind,
        formCode: step.formCode ?? null,
        messageEn: step.messageEn ?? null,
        messageEs: step.messageEs ?? null,
        reminderDays: step.kind === 'pro' || step.kind === 'painJournal' ? [3, 7] : [],
      })),
    );
    created.push(row!.id);
  }

  const injectionId = items.find((item) => item.name === DEMO_LUMBAR_TFESI)?.id;
  if (!injectionId) return;
  const injected = await tx
    .select({ id: interventions.id, patientId: interventions.patientId, performedOn: interventions.performedOn })
    .from(interventions)
    .where(and(eq(interventions.instanceId, instanceId), eq(interventions.itemId, injectionId)))
    .orderBy(asc(interventions.performedOn))
    .limit(4);
  const steps = await tx
    .select()
    .from(pathwaySteps)
    .where(and(eq(pathwaySteps.instanceId, instanceId), eq(pathwaySteps.pathwayId, created[0]!)))
    .orderBy(asc(pathwaySteps.sortOrder));
  for (const [index, procedure] of injected.entries()) {
    const [year, month, day] = procedure.performedOn.split('-').map(Number);
    const anchorAt = instantOfClinicTime(year!, month!, day!, timeZone, 9);
    const [enrolment] = await tx
      .insert(pathwayEnrolments)
      .values({
        instanceId,
        pathwayId: created[0]!,
        patientId: procedure.patientId,
        anchorAt,
        startedBy: 'procedure',
        interventionId: procedure.id,
      })
      .returning({ id: pathwayEnrolments.id });
    // PDI totals out of 70: about 40 before the injection, improving at each step.
    let pdiTotal = 42 - index * 3;
    let waiting = false;
    for (const step of steps) {
      const dueAt = new Date(anchorAt.getTime() + step.dayOffset * DAY_MS);
      const run = { instanceId, enrolmentId: enrolment!.id, stepId: step.id, dueAt };
      if (dueAt.getTime() > now.getTime()) {
        await tx.insert(pathwayStepRuns).values(run);
        waiting = true;
        continue;
      }
      const sentAt = dueAt;
      const answeredAt = new Date(dueAt.getTime() + DAY_MS + 3 * 3_600_000);
      if (step.kind === 'education') {
        await tx.insert(pathwayStepRuns).values({ ...run, status: 'completed', sentAt, completedAt: sentAt });
      } else if (step.kind === 'task') {
        await tx.insert(pathwayStepRuns).values({ ...run, status: 'sent', sentAt });
        waiting = true;
      } else if (step.kind === 'painJournal') {
        await tx.insert(pathwayStepRuns).values({ ...run, status: 'completed', sentAt, completedAt: answeredAt });
      } else {
        const [link] = await tx
          .insert(patientLinks)
          .values({
            instanceId,
            patientId: procedure.patientId,
            kind: 'form',
            formCode: PDI,
            // A token no one holds: demo links are never opened.
            tokenHash: sha256(randomBytes(32).toString('base64url')),
            language: 'en',
            expiresAt: new Date(dueAt.getTime() + 14 * DAY_MS),
          })
          .returning({ id: patientLinks.id });
        const recent = now.getTime() - dueAt.getTime() < 14 * DAY_MS;
        if (index === 1 && step.dayOffset === 90) {
          await tx.insert(pathwayStepRuns).values({
            ...run,
            status: 'missed',
            sentAt,
            remindersSent: 2,
            linkId: link!.id,
            completedAt: new Date(dueAt.getTime() + 14 * DAY_MS),
          });
          continue;
        }
        if (recent && index === injected.length - 1) {
          await tx.insert(pathwayStepRuns).values({
            ...run,
            status: 'sent',
            sentAt,
            remindersSent: now.getTime() - dueAt.getTime() > 3 * DAY_MS ? 1 : 0,
            linkId: link!.id,
          });
          waiting = true;
          continue;
        }
        const answers = pdiAnswers(pdiTotal);
        const scores = scoreForm(PDI, answers);
        const headline = headlineOf(PDI, scores);
        const [response] = await tx
          .insert(formResponses)
          .values({
            instanceId,
            patientId: procedure.patientId,
            linkId: link!.id,
            formCode: PDI,
            version: getInstrument(PDI).version,
            language: 'en',
            answers,
            scores,
            headlineScore: headline.score,
            band: headline.band,
            idempotencyKey: randomUUID(),
            submittedAt: answeredAt,
          })
          .returning({ id: formResponses.id });
        await tx.update(patientLinks).set({ completedAt: answeredAt }).where(eq(patientLinks.id, link!.id));
        await tx.insert(pathwayStepRuns).values({
          ...run,
          status: 'completed',
          sentAt,
          completedAt: answeredAt,
          linkId: link!.id,
          formResponseId: response!.id,
        });
        pdiTotal = Math.max(8, pdiTotal - 12 + 2 * index);
      }
    }
    if (!waiting) {
      await tx
        .update(pathwayEnrolments)
        .set({ status: 'completed', completedAt: now })
        .where(eq(pathwayEnrolments.id, enrolment!.id));
    }
  }

  // The stimulator trial waiting for authorisation: enrolled by staff, nothing due yet.
  const [planned] = await tx
    .select({ patientId: plannedProcedures.patientId })
    .from(plannedProcedures)
    .where(eq(plannedProcedures.instanceId, instanceId))
    .limit(1);
  if (planned && created[1]) {
    const anchorAt = new Date(now.getTime() + 21 * DAY_MS);
    const [enrolment] = await tx
      .insert(pathwayEnrolments)
      .values({ instanceId, pathwayId: created[1], patientId: planned.patientId, anchorAt, startedBy: 'staff' })
      .onConflictDoNothing()
      .returning({ id: pathwayEnrolments.id });
    const scsSteps = await tx
      .select({ id: pathwaySteps.id, dayOffset: pathwaySteps.dayOffset })
      .from(pathwaySteps)
      .where(and(eq(pathwaySteps.instanceId, instanceId), eq(pathwaySteps.pathwayId, created[1])));
    if (enrolment) {
      await tx.insert(pathwayStepRuns).values(
        scsSteps.map((step) => ({
          instanceId,
          enrolmentId: enrolment.id,
          stepId: step.id,
          dueAt: new Date(anchorAt.getTime() + step.dayOffset * DAY_MS),
        })),
      );
    }
  }
}
