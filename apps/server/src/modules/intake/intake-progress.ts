import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { LocalizedText } from '@pathwell/contracts/forms';
import {
  contactChoiceSchema,
  type ContactChoice,
  type IntakeForm,
  type IntakeView,
  type IntakeWorkStep,
} from '@pathwell/contracts/intake';
import type { BodyMap } from '@pathwell/contracts/body-map';
import { getInstrument, isFormCode } from '@pathwell/instruments';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, customForms, intakeEntries, patientLinks, type IntakePlan } from '../../db/schema';
import { announce } from '../../lib/domain-events';
import { recordActivity } from '../audit/audit.service';
import { patientActivity, type LinkRow } from '../patient-contact/link-access.service';

/*
 * How far an intake got: the forms its plan holds, which steps are done, the answers saved so far (the
 * patient's flow, staff's list, the dashboard and the one-pager read them alike), and completing the
 * link once every step is done.
 */

type EntryRow = typeof intakeEntries.$inferSelect;
export const INTAKE_TARGET = 'intake';

const proKey = (formCode: number) => `pro-${formCode}`;
const customKey = (customFormId: string) => `cf-${customFormId.toLowerCase()}`;

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

export async function entriesOf(db: Database, linkId: string) {
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

/** The opt-in answer is kept beside the steps (step 0 is no step of the plan). */
export const CONTACT_STEP = 0;
export const CONTACT_KEY = 'contact';

export function contactChoiceOf(entries: EntryRow[]): ContactChoice | null {
  const entry = entries.find((candidate) => candidate.step === CONTACT_STEP && candidate.formKey === CONTACT_KEY);
  const parsed = entry ? contactChoiceSchema.safeParse(entry.data) : null;
  return parsed?.success ? parsed.data : null;
}

/** When every step is done the link is complete: staff are told, and the appointment's forms are in. */
export async function completeIfDone(ctx: ServiceContext, tx: Database, link: LinkRow): Promise<boolean> {
  if (link.completedAt) return true;
  const entries = await entriesOf(tx, link.id);
  if (!stepStates(link.intakePlan!, entries).every((state) => state.done)) return false;
  await tx
    .update(patientLinks)
    .set({ completedAt: sql`now()` })
    .where(eq(patientLinks.id, link.id));
  await announce(ctx, tx, 'patientLinkCompleted', {
    linkId: link.id,
    instanceId: link.instanceId,
    patientId: link.patientId,
    appointmentId: link.appointmentId,
    kind: 'intake',
  });
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
