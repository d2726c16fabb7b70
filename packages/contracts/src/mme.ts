import { z } from 'zod';
import { idSchema } from './validation';

/**
 * Total daily opioid dose in morphine milligram equivalents (MME), decision 0039.
 *
 * Source of the conversion factors: Dowell D, Ragan KR, Jones CM, Baldwin GT, Chou R. CDC Clinical
 * Practice Guideline for Prescribing Opioids for Pain — United States, 2022. MMWR Recomm Rep
 * 2022;71(No. RR-3):1–95, Table "Morphine milligram equivalent doses for commonly prescribed opioids for
 * pain management" (adapted there from Von Korff et al., Clin J Pain 2008, and Nielsen et al.,
 * Pharmacoepidemiol Drug Saf 2016). The table's own cautions, which this code follows:
 * - every dose is in mg/day except transdermal fentanyl, which is in mcg/h;
 * - the factors are estimates and must not be used to convert one opioid into another;
 * - methadone has one factor (4.7), not the dose-ranged factors of the 2016 guideline, and needs
 *   particular caution because of its long and variable half-life;
 * - buprenorphine is not in the table (partial µ-receptor agonist), so it has no factor here.
 *
 * The clinic's medicines list (decision 0008) stores the factor per medicine; this table is what the
 * demo data and the tests use, so that a factor typed by an admin can be compared with the published one.
 */
export const MME_SOURCE =
  'CDC Clinical Practice Guideline for Prescribing Opioids for Pain — United States, 2022 (Dowell D, et al. MMWR Recomm Rep 2022;71(No. RR-3)), table of morphine milligram equivalent doses';

/** The published factors: MME per mg of the opioid, or per mcg/h for the fentanyl patch. */
export const cdcMmeFactors = {
  codeine: 0.15,
  fentanylTransdermal: 2.4,
  hydrocodone: 1,
  hydromorphone: 5,
  methadone: 4.7,
  morphine: 1,
  oxycodone: 1.5,
  oxymorphone: 3,
  tapentadol: 0.4,
  tramadol: 0.2,
} as const;
export type CdcOpioid = keyof typeof cdcMmeFactors;

/**
 * Dosage levels flagged on the card. The 50 and 90 MME/day levels are those of the 2016 guideline
 * (Dowell D, Haegerich TM, Chou R. MMWR Recomm Rep 2016;65(No. RR-1), recommendation 5: reassess benefits
 * and risks before increasing to ≥50 MME/day; avoid increasing to ≥90 MME/day or carefully justify it).
 * The 2022 guideline keeps MME as the measure but says its recommendations are not inflexible standards:
 * the flags prompt a review, they do not cap a dose.
 */
export const MME_REVIEW_LEVEL = 50;
export const MME_HIGH_LEVEL = 90;

/**
 * Why a line adds nothing, or how it was counted. `notConverted`: an opioid the CDC table has no factor
 * for (buprenorphine, or an entry the clinic marked so); it is shown as "not converted", never as 0.
 * `transdermalUnit`: a patch entered in a unit other than mcg/h, which the table cannot convert.
 */
export const mmeNotes = ['notOpioid', 'factorMissing', 'strengthMissing', 'patch', 'notConverted', 'transdermalUnit'] as const;
export type MmeNote = (typeof mmeNotes)[number];

/** The only unit the table converts a transdermal opioid from: the patch's delivery rate. */
export const TRANSDERMAL_UNIT = 'mcg/h';

/**
 * Buprenorphine is left out of the CDC 2022 table (a partial µ-receptor agonist), so any factor a clinic
 * typed for it would be one the table does not give: it is never converted.
 */
export const NOT_IN_CDC_TABLE = /buprenorphin/i;

/** One medicine as taken: the list entry's attributes plus how much of it and how often. */
export interface MmeInputLine {
  /** The list entry's name; buprenorphine is recognised by it. */
  name?: string | null;
  strength?: number | null;
  unit?: string | null;
  route?: string | null;
  isOpioid?: boolean | null;
  /** The clinic marked this opioid as having no factor in the CDC table. */
  mmeNotConverted?: boolean | null;
  isBenzodiazepine?: boolean | null;
  mmeConversionFactor?: number | null;
  unitsPerDose: number;
  dosesPerDay: number;
}

export interface MmeLineResult {
  /** Null when the line adds nothing (see `note`). */
  dailyMme: number | null;
  note: MmeNote | null;
}

export interface MmeTotals {
  lines: MmeLineResult[];
  totalMme: number;
  flags: { atOrAbove50: boolean; atOrAbove90: boolean; withBenzodiazepine: boolean };
}

/**
 * Rounding: each line and the total to one decimal, half away from zero, after clearing binary noise
 * (10 × 4 × 0.15 is 5.999999… in floating point). The total is the sum of the unrounded lines, and the
 * flags compare the rounded total, so what is shown and what is flagged agree.
 */
export function roundMme(value: number): number {
  const cleaned = Number(value.toFixed(6));
  return Math.round(cleaned * 10) / 10;
}

/** The exact daily MME of one line, or why it has none. */
function lineMme(line: MmeInputLine): { value: number | null; note: MmeNote | null } {
  if (!line.isOpioid) return { value: null, note: 'notOpioid' };
  // A factor of 0 is no conversion either: the table has no opioid worth 0 MME.
  if (line.mmeNotConverted || NOT_IN_CDC_TABLE.test(line.name ?? '') || line.mmeConversionFactor === 0) {
    return { value: null, note: 'notConverted' };
  }
  if (line.mmeConversionFactor === undefined || line.mmeConversionFactor === null) return { value: null, note: 'factorMissing' };
  if (!line.strength) return { value: null, note: 'strengthMissing' };
  // The table's transdermal factor is per mcg/h; a patch typed in mcg counted by "doses per day" came out
  // three times too low (25 mcg every 72 h: 19.8 instead of 60), so any other unit is not converted.
  if (isTransdermal(line) && line.unit !== TRANSDERMAL_UNIT) return { value: null, note: 'transdermalUnit' };
  // A patch's strength is already a rate (mcg/h) and the table's factor applies to that rate; units are
  // the patches worn together, and how often a patch is changed does not change the dose.
  if (line.unit === TRANSDERMAL_UNIT)
    return { value: line.strength * line.unitsPerDose * line.mmeConversionFactor, note: 'patch' };
  return { value: line.strength * line.unitsPerDose * line.dosesPerDay * line.mmeConversionFactor, note: null };
}

/**
 * A patch: the route says so, or the unit is already a rate, or a fentanyl entry without a route (the
 * table's only fentanyl is the transdermal one).
 */
export function isTransdermal(line: Pick<MmeInputLine, 'route' | 'unit' | 'name'>): boolean {
  if (line.route === 'transdermal' || line.unit === TRANSDERMAL_UNIT) return true;
  return !line.route && /fentanyl/i.test(line.name ?? '');
}

/**
 * A transdermal opioid must be entered per hour (its strength in mcg/h), the only unit the CDC table
 * converts a patch from. The medicines list refuses any other unit, and so do the patient's list and the
 * what-if for an entry stored before this rule.
 */
export function transdermalUnitWrong(line: Pick<MmeInputLine, 'route' | 'unit' | 'isOpioid' | 'name'>): boolean {
  return Boolean(line.isOpioid) && isTransdermal(line) && line.unit !== TRANSDERMAL_UNIT;
}

/** Lines of the patient's current medicines (or a what-if) to the total MME/day and its flags. */
export function calculateMme(lines: readonly MmeInputLine[]): MmeTotals {
  let exact = 0;
  const results = lines.map((line) => {
    const { value, note } = lineMme(line);
    if (value !== null) exact += value;
    return { dailyMme: value === null ? null : roundMme(value), note };
  });
  const totalMme = roundMme(exact);
  const hasOpioid = lines.some((line) => line.isOpioid);
  const hasBenzodiazepine = lines.some((line) => line.isBenzodiazepine);
  return {
    lines: results,
    totalMme,
    flags: {
      atOrAbove50: totalMme >= MME_REVIEW_LEVEL,
      atOrAbove90: totalMme >= MME_HIGH_LEVEL,
      // 2022 guideline, recommendation 11: particular caution with opioids and benzodiazepines together.
      withBenzodiazepine: hasOpioid && hasBenzodiazepine,
    },
  };
}

/* ---------------------------------------------------------------- API schemas */

const decimals = (places: number) => (value: number) => Math.abs(value * 10 ** places - Math.round(value * 10 ** places)) < 1e-6;

/** How a medicine is taken: 1 tablet 4 times a day; a patch is 1 unit (dosesPerDay is not used for mcg/h). */
export const medicineUseSchema = z.object({
  unitsPerDose: z
    .number({ error: 'numberInvalid' })
    .positive('numberOutOfRange')
    .max(100, 'numberOutOfRange')
    .refine(decimals(3), 'numberInvalid'),
  dosesPerDay: z
    .number({ error: 'numberInvalid' })
    .positive('numberOutOfRange')
    .max(24, 'numberOutOfRange')
    .refine(decimals(2), 'numberInvalid'),
});
export type MedicineUse = z.infer<typeof medicineUseSchema>;

export const patientMedicineInputSchema = medicineUseSchema.extend({ medicineId: idSchema });
export type PatientMedicineInput = z.infer<typeof patientMedicineInputSchema>;

export const patientMedicineSchema = z.object({
  id: z.string(),
  medicineId: z.string(),
  name: z.string(),
  strength: z.number().nullable(),
  unit: z.string().nullable(),
  route: z.string().nullable(),
  isOpioid: z.boolean(),
  isBenzodiazepine: z.boolean(),
  mmeConversionFactor: z.number().nullable(),
  unitsPerDose: z.number(),
  dosesPerDay: z.number(),
  dailyMme: z.number().nullable(),
  note: z.enum(mmeNotes).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  stoppedAt: z.string().nullable(),
});
export type PatientMedicine = z.infer<typeof patientMedicineSchema>;

export const mmeRequestSchema = z.object({
  patientId: idSchema,
  /** A what-if: these medicines instead of the current ones; nothing is saved. */
  medicines: z.array(patientMedicineInputSchema).max(50, 'numberOutOfRange').optional(),
});
export type MmeRequest = z.infer<typeof mmeRequestSchema>;

export const mmeLineSchema = z.object({
  /** The patient's medicine row; null in a what-if. */
  patientMedicineId: z.string().nullable(),
  medicineId: z.string(),
  name: z.string(),
  strength: z.number().nullable(),
  unit: z.string().nullable(),
  unitsPerDose: z.number(),
  dosesPerDay: z.number(),
  factor: z.number().nullable(),
  isOpioid: z.boolean(),
  isBenzodiazepine: z.boolean(),
  dailyMme: z.number().nullable(),
  note: z.enum(mmeNotes).nullable(),
});
export type MmeLine = z.infer<typeof mmeLineSchema>;

export const mmeResultSchema = z.object({
  patientId: z.string(),
  whatIf: z.boolean(),
  lines: z.array(mmeLineSchema),
  totalMme: z.number(),
  flags: z.object({ atOrAbove50: z.boolean(), atOrAbove90: z.boolean(), withBenzodiazepine: z.boolean() }),
  source: z.string(),
});
export type MmeResult = z.infer<typeof mmeResultSchema>;
