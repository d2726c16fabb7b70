import { randomUUID } from 'node:crypto';
import {
  criticalFindings,
  getInstrument,
  headlineOf,
  isFormCode,
  scoreForm,
  type FormCode,
  type InstrumentAnswers,
} from '@pathwell/instruments';
import type { Database } from '../client';
import { type appointments, criticalFindings as criticalFindingsTable, formResponses, type patients } from '../schema';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { createRandom, type Random } from './demo-random';

type PatientRow = typeof patients.$inferInsert;
type AppointmentRow = typeof appointments.$inferInsert;
type ResponseRow = typeof formResponses.$inferInsert;
type FindingRow = typeof criticalFindingsTable.$inferInsert;

// The Pain Disability Index ships its wording; a licensed form (ODI, NDI…) answered in a clinic without its
// imported wording would carry no score (decision 0067), so the demo's back-pain form is the PDI.
const PDI = 4 as const;
const PHQ9 = 11 as const;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * PDI answers (seven categories rated 0–10, all required) that follow the visit's pain: heavier pain, more
 * disability, with noise per category; life-support activities (category 7) suffer least. Demo data only —
 * the point is charts with a believable course, not a clinical model. The score is the instruments package's.
 */
function pdiAnswers(random: Random, pain: number): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  getInstrument(PDI).questions.forEach((question, index) => {
    const weight = index === 6 ? 0.4 : 0.75;
    answers[question.id] = clamp(Math.round(pain * weight + random.int(-1, 1)), 0, 10);
  });
  return answers;
}

function phq9Answers(random: Random, burden: number): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  for (let item = 1; item <= 9; item++) {
    const tendency = item === 9 ? burden - 1.5 : burden;
    answers[`q${item}`] = clamp(Math.round(tendency + random.int(-1, 1) * 0.7), 0, 3);
  }
  answers.q10 = clamp(Math.round(burden), 0, 3);
  return answers;
}

function responseRow(
  instanceId: string,
  appointment: AppointmentRow,
  formCode: FormCode,
  answers: InstrumentAnswers,
  language: 'en' | 'es',
  minutesAfterStart: number,
): ResponseRow {
  const scores = scoreForm(formCode, answers);
  const headline = headlineOf(formCode, scores);
  return {
    id: randomUUID(),
    instanceId,
    patientId: appointment.patientId,
    appointmentId: appointment.id!,
    formCode,
    version: getInstrument(formCode).version,
    language,
    answers: Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== undefined)) as Record<string, number>,
    scores,
    headlineScore: headline.score,
    band: headline.band,
    idempotencyKey: randomUUID(),
    submittedAt: new Date(new Date(appointment.startsAt).getTime() + minutesAfterStart * 60_000),
  };
}

/**
 * Pure: PDI and PHQ-9 responses at the completed visits of about a third of the demo patients, so the
 * patient dashboard's questionnaire panel and the result pages have history to show.
 */
export function buildDemoResponses(
  instanceId: string,
  patientRows: Pick<PatientRow, 'id' | 'preferredLanguage'>[],
  appointmentRows: AppointmentRow[],
  seed: number,
  /** Every how many-th patient answers: a third by default; the reports' demo cohort passes 1. */
  everyNth = 3,
): ResponseRow[] {
  const random = createRandom(seed * 7919);
  const visitsByPatient = new Map<string, AppointmentRow[]>();
  for (const appointment of appointmentRows) {
    if (appointment.status !== AppointmentStatus.Completed || appointment.painScore == null) continue;
    const visits = visitsByPatient.get(appointment.patientId) ?? [];
    visits.push(appointment);
    visitsByPatient.set(appointment.patientId, visits);
  }
  const rows: ResponseRow[] = [];
  patientRows.forEach((patient, index) => {
    if (index % everyNth !== 0) return;
    const visits = (visitsByPatient.get(patient.id!) ?? []).sort(
      (a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime(),
    );
    const language = patient.preferredLanguage === 'es' ? 'es' : 'en';
    let burden = random.int(0, 16) / 10;
    for (const visit of visits) {
      // The PDI ships in English only; PHQ-9 in both languages: each is answered in one it offers.
      rows.push(
        responseRow(
          instanceId,
          visit,
          PDI,
          pdiAnswers(random, visit.painScore!),
          getInstrument(PDI).languages.includes(language) ? language : 'en',
          2,
        ),
      );
      rows.push(
        responseRow(
          instanceId,
          visit,
          PHQ9,
          phq9Answers(random, burden),
          getInstrument(PHQ9).languages.includes(language) ? language : 'en',
          4,
        ),
      );
      burden = Math.max(0, burden - random.int(0, 6) / 10);
    }
  });
  return rows;
}

/**
 * The critical findings of seeded responses (decision 0058), as the submission paths store them, left
 * unacknowledged: the demo's dashboards show the red flag. History raises no notification.
 */
function demoFindings(rows: ResponseRow[]): FindingRow[] {
  return rows.flatMap((row) =>
    row.formCode != null && isFormCode(row.formCode)
      ? criticalFindings(row.formCode, row.answers as InstrumentAnswers).map((finding) => ({
          instanceId: row.instanceId,
          responseId: row.id!,
          patientId: row.patientId,
          appointmentId: row.appointmentId ?? null,
          formCode: row.formCode!,
          ruleKey: finding.key,
          itemId: finding.itemId,
          answer: finding.answer,
          createdAt: row.submittedAt as Date,
        }))
      : [],
  );
}

export async function insertDemoResponses(tx: Database, rows: ResponseRow[]): Promise<number> {
  for (let start = 0; start < rows.length; start += 1000) await tx.insert(formResponses).values(rows.slice(start, start + 1000));
  const findings = demoFindings(rows);
  for (let start = 0; start < findings.length; start += 1000)
    await tx.insert(criticalFindingsTable).values(findings.slice(start, start + 1000));
  return rows.length;
}
