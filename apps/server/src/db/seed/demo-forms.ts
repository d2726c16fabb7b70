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
import { AppointmentStatus, createRandom, type Random } from './demo-patients';

type PatientRow = typeof patients.$inferInsert;
type AppointmentRow = typeof appointments.$inferInsert;
type ResponseRow = typeof formResponses.$inferInsert;
type FindingRow = typeof criticalFindingsTable.$inferInsert;

const ODI = 2 as const;
const PHQ9 = 11 as const;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * ODI answers that follow the visit's pain: heavier pain, more disability, with noise per section.
 * Demo data only — the point is charts with a believable course, not a clinical model.
 */
function odiAnswers(random: Random, pain: number, skipsSexLife: boolean): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  for (let item = 1; item <= 10; item++) {
    if (item === 8 && skipsSexLife) continue;
    answers[`q${item}`] = clamp(Math.round(pain * 0.35 + random.int(-1, 1) * 0.8), 0, 5);
  }
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
 * Pure: ODI and PHQ-9 responses at the completed visits of about a third of the demo patients, so the
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
    const skipsSexLife = random.chance(0.3);
    let burden = random.int(0, 16) / 10;
    for (const visit of visits) {
      rows.push(responseRow(instanceId, visit, ODI, odiAnswers(random, visit.painScore!, skipsSexLife), language, 2));
      // PHQ-9 has no validated Spanish text shipped; Spanish speakers answer it in English only if offered.
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
export function demoFindings(rows: ResponseRow[]): FindingRow[] {
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
