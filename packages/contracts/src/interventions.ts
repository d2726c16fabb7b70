import { z } from 'zod';
import { idSchema } from './validation';
import { isoDateSchema } from './patients';
import { CPT_CODE_PATTERN } from './managed-lists';

/*
 * Issue #13 §1 (decision 0038): the visit record (actions taken, codes, visit note), interventions and
 * pain-pump visits, planned procedures with the payer's compliance checklist, and cohort membership.
 */

/**
 * ICD-10-CM code shape (CMS/NCHS ICD-10-CM Official Guidelines, Section I.A: 3–7 characters, the first a
 * letter, a decimal point after the third). Only the shape is checked: Pathwell stores codes and never
 * invents their descriptions.
 */
export const ICD10_CODE_PATTERN = /^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/;
/** Vertebral levels as clinicians write them: one level (L5, S1) or a segment (L4-L5, L5-S1, C7-T1). */
export const SPINAL_LEVEL_PATTERN = /^(C[1-8]|T([1-9]|1[0-2])|L[1-6]|S[1-5]|Co)(-(C[1-8]|T([1-9]|1[0-2])|L[1-6]|S[1-5]|Co))?$/;

const upper = (value: string) => value.trim().toUpperCase();
export const icd10CodeSchema = z
  .string()
  .max(8, 'icd10CodeInvalid')
  .transform(upper)
  .pipe(z.string().regex(ICD10_CODE_PATTERN, 'icd10CodeInvalid'));
export const procedureCodeSchema = z
  .string()
  .max(5, 'cptCodeInvalid')
  .transform(upper)
  .pipe(z.string().regex(CPT_CODE_PATTERN, 'cptCodeInvalid'));
const spinalLevelSchema = z
  .string()
  .max(7, 'spinalLevelInvalid')
  .transform(upper)
  .pipe(z.string().regex(SPINAL_LEVEL_PATTERN, 'spinalLevelInvalid'));
const optionalText = (max: number) =>
  z
    .string()
    .max(max, 'tooLong')
    .nullish()
    .transform((value) => (value?.trim() ? value.trim() : null));

export const VISIT_ACTION_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** "No Actions Taken" (8) cannot be recorded together with an action. */
export const NO_ACTIONS_TAKEN = 8;

export const visitRecordInputSchema = z
  .object({
    actionsTaken: z
      .array(z.number().int('invalid').min(1, 'invalid').max(9, 'invalid'))
      .max(9)
      .transform((values) => [...new Set(values)].sort((a, b) => a - b)),
    diagnosisCodes: z
      .array(icd10CodeSchema)
      .max(12)
      .transform((codes) => [...new Set(codes)]),
    procedureCodes: z
      .array(procedureCodeSchema)
      .max(20)
      .transform((codes) => [...new Set(codes)]),
    note: optionalText(10_000),
  })
  .refine((value) => !(value.actionsTaken.includes(NO_ACTIONS_TAKEN) && value.actionsTaken.length > 1), {
    message: 'invalid',
    path: ['actionsTaken'],
  });
export type VisitRecordInput = z.input<typeof visitRecordInputSchema>;

export const visitRecordSchema = z.object({
  appointmentId: idSchema,
  patientId: idSchema,
  actionsTaken: z.array(z.number()),
  diagnosisCodes: z.array(z.string()),
  procedureCodes: z.array(z.string()),
  note: z.string().nullable(),
  recordedByName: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type VisitRecord = z.infer<typeof visitRecordSchema>;

export const recentCodesQuerySchema = z.object({ kind: z.enum(['diagnosis', 'procedure']) });
/** Codes this clinic used lately, most used first; procedure codes also from its interventional items. */
export const recentCodeSchema = z.object({
  code: z.string(),
  uses: z.number(),
  /** The clinic's own name for it (its interventional item), never a description Pathwell made up. */
  clinicLabel: z.string().nullable(),
});
export type RecentCode = z.infer<typeof recentCodeSchema>;

export const interventionKinds = ['procedure', 'injection', 'pump'] as const;
export type InterventionKind = (typeof interventionKinds)[number];
export const interventionSides = ['left', 'right', 'bilateral', 'midline'] as const;
export const guidanceKinds = ['fluoroscopy', 'ultrasound', 'ct', 'landmark', 'none'] as const;
export const clinicalProviderTypeValues = ['Doctor', 'Nurse Practitioner', 'Physician Assistant'] as const;
/** Dose changes enumeration: 1 Maintain, 2 Increase, 3 Decrease, 4 Change To. */
export const DOSE_MAINTAIN = 1;

const positive = (max: number) => z.number('invalid').positive('numberOutOfRange').max(max, 'numberOutOfRange');

export const pumpRefillSchema = z
  .object({
    painPumpMedicineId: idSchema,
    concentration: positive(100_000),
    dailyDose: positive(100_000)
      .nullish()
      .transform((value) => value ?? null),
    doseChange: z.number().int('invalid').min(1, 'invalid').max(4, 'invalid'),
    newDailyDose: positive(100_000)
      .nullish()
      .transform((value) => value ?? null),
  })
  .refine((value) => value.doseChange === DOSE_MAINTAIN || value.newDailyDose !== null, {
    message: 'newDoseRequired',
    path: ['newDailyDose'],
  });

export const pumpVisitSchema = z.object({
  procedure: z
    .number()
    .int('invalid')
    .min(1, 'invalid')
    .max(3, 'invalid')
    .nullish()
    .transform((value) => value ?? null),
  reservoirVolumeMl: positive(100)
    .nullish()
    .transform((value) => value ?? null),
  refills: z.array(pumpRefillSchema).max(6),
  nextRefillDate: isoDateSchema.nullish().transform((value) => value ?? null),
});
export type PumpVisitInput = z.input<typeof pumpVisitSchema>;

/**
 * A medicine given during a procedure: an injectable of the clinic's medicines list (decision 0062),
 * the dose in `unit` (mg), the volume injected and the product's lot, as the record and the note state.
 */
export const interventionMedicineSchema = z.object({
  medicineId: idSchema,
  dose: positive(100_000),
  unit: z.string().min(1, 'required').max(12, 'tooLong'),
  volumeMl: positive(1000)
    .nullish()
    .transform((value) => value ?? null),
  lot: optionalText(40),
});

export interface MedicineGiven {
  name: string;
  dose: number;
  unit: string;
  volumeMl?: number | null;
  lot?: string | null;
}

/**
 * The one wording of a medicine given ("Triamcinolone acetonide 40 mg/mL: 40 mg, 1 mL, lot TK2291"): the
 * note's {{medicines}} is this text of the record, and the form previews the same text, so the note and
 * the structured record cannot say different things (issue #24).
 */
export function medicineGivenText(medicine: MedicineGiven): string {
  const parts = [`${medicine.dose} ${medicine.unit}`.trim()];
  if (medicine.volumeMl != null) parts.push(`${medicine.volumeMl} mL`);
  if (medicine.lot) parts.push(`lot ${medicine.lot}`);
  return `${medicine.name}: ${parts.join(', ')}`;
}

export const medicinesGivenText = (medicines: readonly MedicineGiven[]) => medicines.map(medicineGivenText).join('; ');

export const interventionInputSchema = z
  .object({
    patientId: idSchema,
    appointmentId: idSchema.nullish().transform((value) => value ?? null),
    kind: z.enum(interventionKinds),
    itemId: idSchema.nullish().transform((value) => value ?? null),
    bodyPartId: idSchema.nullish().transform((value) => value ?? null),
    directionId: idSchema.nullish().transform((value) => value ?? null),
    locationId: idSchema.nullish().transform((value) => value ?? null),
    adaLocationId: idSchema.nullish().transform((value) => value ?? null),
    side: z
      .enum(interventionSides)
      .nullish()
      .transform((value) => value ?? null),
    levels: z.array(spinalLevelSchema).max(10).default([]),
    medicines: z.array(interventionMedicineSchema).max(10).default([]),
    guidance: z
      .enum(guidanceKinds)
      .nullish()
      .transform((value) => value ?? null),
    performedOn: isoDateSchema,
    providerId: idSchema.nullish().transform((value) => value ?? null),
    providerType: z
      .enum(clinicalProviderTypeValues)
      .nullish()
      .transform((value) => value ?? null),
    completion: z.number().int('invalid').min(1, 'invalid').max(3, 'invalid').default(1),
    outcome: optionalText(4000),
    followUpPlan: optionalText(4000),
    pump: pumpVisitSchema.nullish().transform((value) => value ?? null),
  })
  .superRefine((value, issue) => {
    if (value.kind !== 'pump' && !value.itemId) issue.addIssue({ code: 'custom', message: 'required', path: ['itemId'] });
    if (value.kind === 'pump' && !value.pump) issue.addIssue({ code: 'custom', message: 'required', path: ['pump'] });
  });
export type InterventionInput = z.input<typeof interventionInputSchema>;
export type InterventionPayload = z.output<typeof interventionInputSchema>;

const named = z.object({ id: idSchema, name: z.string() }).nullable();
export const interventionSchema = z.object({
  id: idSchema,
  patientId: idSchema,
  appointmentId: idSchema.nullable(),
  kind: z.enum(interventionKinds),
  item: named.and(z.object({ cptCode: z.string().nullable() }).partial()).nullable(),
  bodyPart: named,
  direction: named,
  location: named,
  adaLocation: named,
  side: z.enum(interventionSides).nullable(),
  levels: z.array(z.string()),
  medicines: z.array(
    z.object({
      medicineId: idSchema,
      name: z.string(),
      dose: z.number(),
      unit: z.string(),
      volumeMl: z.number().nullable(),
      lot: z.string().nullable(),
    }),
  ),
  guidance: z.enum(guidanceKinds).nullable(),
  performedOn: z.string(),
  provider: named,
  providerType: z.string().nullable(),
  completion: z.number(),
  outcome: z.string().nullable(),
  followUpPlan: z.string().nullable(),
  pump: z
    .object({
      procedure: z.number().nullable(),
      reservoirVolumeMl: z.number().nullable(),
      refills: z.array(
        z.object({
          painPumpMedicineId: idSchema,
          name: z.string(),
          concentration: z.number(),
          concentrationUnit: z.string().nullable(),
          dailyDose: z.number().nullable(),
          doseChange: z.number(),
          newDailyDose: z.number().nullable(),
        }),
      ),
      nextRefillDate: z.string().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Intervention = z.infer<typeof interventionSchema>;

const option = z.object({ id: idSchema, name: z.string() });
/** `interventionforminfo/{id}`: everything the intervention form's selectors need, in one call. */
export const interventionFormInfoSchema = z.object({
  patient: z.object({ id: idSchema, name: z.string(), dateOfBirth: z.string(), doctorId: idSchema.nullable() }),
  procedures: z.array(option.extend({ cptCode: z.string().nullable() })),
  injections: z.array(option.extend({ cptCode: z.string().nullable() })),
  bodyParts: z.array(option),
  directions: z.array(option.extend({ abbreviation: z.string().nullable() })),
  locations: z.array(option),
  adaLocations: z.array(option.extend({ code: z.string().nullable() })),
  /** Injectables only (decision 0062): what is given during a procedure, with its concentration. */
  medicines: z.array(option.extend({ strength: z.number().nullable(), unit: z.string().nullable(), kind: z.string() })),
  painPumpMedicines: z.array(option.extend({ concentration: z.number().nullable(), unit: z.string().nullable() })),
  providers: z.array(option.extend({ providerType: z.string().nullable() })),
  appointments: z.array(z.object({ id: idSchema, startsAt: z.string(), status: z.number() })),
  procedureNotesEnabled: z.boolean(),
});
export type InterventionFormInfo = z.infer<typeof interventionFormInfoSchema>;

export const plannedProcedureStatuses = [
  'planned',
  'authorisationRequested',
  'authorised',
  'denied',
  'scheduled',
  'performed',
  'cancelled',
] as const;
export type PlannedProcedureStatus = (typeof plannedProcedureStatuses)[number];

export const complianceSchema = z.object({
  conservativeCareWeeks: z
    .number()
    .int('invalid')
    .min(0, 'numberOutOfRange')
    .max(520, 'numberOutOfRange')
    .nullish()
    .transform((value) => value ?? null),
  physicalTherapyCompleted: z.boolean().default(false),
  imagingCompleted: z.boolean().default(false),
  psychEvaluationCompleted: z.boolean().default(false),
  notes: optionalText(2000),
});
export type ComplianceInput = z.input<typeof complianceSchema>;

/** "Procedures upsert": with an id it updates that planned procedure, without it adds one. */
export const plannedProcedureUpsertSchema = z.object({
  id: idSchema.nullish(),
  patientId: idSchema,
  itemId: idSchema,
  status: z.enum(plannedProcedureStatuses).default('planned'),
  plannedFor: isoDateSchema.nullish().transform((value) => value ?? null),
});
export type PlannedProcedureUpsert = z.input<typeof plannedProcedureUpsertSchema>;

export const plannedProcedureSchema = z.object({
  id: idSchema,
  patientId: idSchema,
  item: z.object({ id: idSchema, name: z.string(), cptCode: z.string().nullable() }),
  status: z.enum(plannedProcedureStatuses),
  plannedFor: z.string().nullable(),
  compliance: z.object({
    conservativeCareWeeks: z.number().nullable(),
    physicalTherapyCompleted: z.boolean(),
    imagingCompleted: z.boolean(),
    psychEvaluationCompleted: z.boolean(),
    notes: z.string().nullable(),
  }),
  interventionId: idSchema.nullable(),
  updatedAt: z.string(),
});
export type PlannedProcedure = z.infer<typeof plannedProcedureSchema>;

export const patientStudyGroupsSchema = z.object({
  studyGroupIds: z
    .array(idSchema)
    .max(50)
    .transform((ids) => [...new Set(ids)]),
});
export const bulkStudyGroupSchema = z.object({
  patientIds: z
    .array(idSchema)
    .min(1, 'required')
    .max(200)
    .transform((ids) => [...new Set(ids)]),
  studyGroupId: idSchema,
  action: z.enum(['add', 'remove']),
});
export const patientStudyGroupSchema = z.object({ id: idSchema, name: z.string(), assignedAt: z.string() });
export type PatientStudyGroup = z.infer<typeof patientStudyGroupSchema>;

/**
 * Pain-pump refills coming due (issue #24, decision 0062): each patient's latest pump visit whose next
 * refill date is overdue or within `withinDays` clinic days, soonest first.
 */
export const pumpRefillsDueQuerySchema = z.object({
  withinDays: z.coerce
    .number({ error: 'numberInvalid' })
    .int('numberInvalid')
    .min(0, 'numberOutOfRange')
    .max(365, 'numberOutOfRange')
    .default(30),
  /** One patient's (the patient dashboard); every visible patient's without it. */
  patientId: idSchema.optional(),
});
export type PumpRefillsDueQuery = z.input<typeof pumpRefillsDueQuerySchema>;

export const pumpRefillDueSchema = z.object({
  interventionId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  /** The pump visit that set the date. */
  performedOn: z.string(),
  nextRefillDate: z.string(),
  /** Clinic days from today; negative when overdue. */
  daysUntil: z.number().int(),
  medicines: z.array(z.string()),
  providerName: z.string().nullable(),
});
export type PumpRefillDue = z.infer<typeof pumpRefillDueSchema>;

export const pumpRefillsDueSchema = z.object({
  /** The clinic's today (ISO), which `daysUntil` counts from. */
  today: z.string(),
  withinDays: z.number().int(),
  data: z.array(pumpRefillDueSchema),
});
export type PumpRefillsDue = z.infer<typeof pumpRefillsDueSchema>;
