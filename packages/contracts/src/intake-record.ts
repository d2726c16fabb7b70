import { z } from 'zod';
import { intakeViewSchema, paperworkSchema, staffIntakeSchema } from './intake.js';
import { patientMedicineInputSchema, patientMedicineSchema } from './mme.js';
import { idSchema } from './validation.js';

/**
 * What the intake's paperwork holds beside the record, and how staff take it in (issue #24 §4, decision
 * 0056). The patient's answer never replaces what is on file by itself: staff see each field as on file
 * against the answer and accept the ones they choose.
 */

/** Insurance (or self-pay) and pharmacy on the patient record, in the paperwork's own shape. */
export const patientCoverageSchema = paperworkSchema.pick({
  selfPay: true,
  primaryInsurance: true,
  secondaryInsurance: true,
  pharmacy: true,
});
export type PatientCoverage = z.infer<typeof patientCoverageSchema>;

/** The record as the paperwork step asks it: shown to the patient, after the identity check, to confirm or correct. */
export const intakeOnFileSchema = paperworkSchema.omit({ agreementSignature: true });
export type IntakeOnFile = z.infer<typeof intakeOnFileSchema>;
export const intakeViewWithRecordSchema = intakeViewSchema.extend({ onFile: intakeOnFileSchema.nullable() });
export type IntakeViewWithRecord = z.infer<typeof intakeViewWithRecordSchema>;

export const intakeRecordFields = [
  'email',
  'address',
  'mobilePhone',
  'homePhone',
  'workPhone',
  'preferredLanguage',
  'emergencyContact',
  'primaryInsurance',
  'secondaryInsurance',
  'pharmacy',
  'sexAssignedAtBirth',
  'pronouns',
  'communicationPreference',
] as const;
export type IntakeRecordField = (typeof intakeRecordFields)[number];
export const intakeRecordFieldSchema = z.enum(intakeRecordFields);

/** A field's parts (payer, member id…) as text; the page names each part. */
const fieldValueSchema = z.record(z.string(), z.string()).nullable();

export const intakeChangeSchema = z.object({
  field: intakeRecordFieldSchema,
  onFile: fieldValueSchema,
  answer: fieldValueSchema,
  /** The answer is not what the record holds. */
  differs: z.boolean(),
  /** Why the answer cannot be taken as it is (the record keeps a coded item it does not match); null: it can. */
  blocked: z.enum(['notCoded']).nullable(),
});
export type IntakeChange = z.infer<typeof intakeChangeSchema>;

export const acceptIntakeChangesSchema = z.object({
  fields: z.array(intakeRecordFieldSchema).min(1, 'required').max(intakeRecordFields.length, 'tooLong'),
});
export type AcceptIntakeChanges = z.infer<typeof acceptIntakeChangesSchema>;

export const intakeLinkParamsSchema = z.object({ id: idSchema, linkId: idSchema });

export const patientAllergySchema = z.object({
  id: idSchema,
  name: z.string(),
  reaction: z.string().nullable(),
  /** The intake the allergy came from; null when staff entered it. */
  linkId: idSchema.nullable(),
  createdAt: z.string(),
});
export type PatientAllergy = z.infer<typeof patientAllergySchema>;

/** `POST /api/patients/{id}/allergies/{allergyId}/remove`: an allergy recorded in error, or no longer true. */
export const allergyParamsSchema = z.object({ id: idSchema, allergyId: idSchema });

/**
 * One step from the intake's health history to the record: each intake medication staff keep is mapped to
 * an entry of the clinic's medicines list with how it is taken (`index` is its place in the intake's list),
 * and the ticked allergies are recorded.
 */
export const reconcileIntakeSchema = z
  .object({
    medicines: z
      .array(patientMedicineInputSchema.extend({ index: z.number().int().min(0, 'invalid').max(99, 'invalid') }))
      .max(100, 'tooLong'),
    allergies: z.array(z.number().int().min(0, 'invalid').max(49, 'invalid')).max(50, 'tooLong'),
  })
  .refine((value) => value.medicines.length + value.allergies.length > 0, { message: 'required', path: ['medicines'] });
export type ReconcileIntake = z.input<typeof reconcileIntakeSchema>;
export const reconciledIntakeSchema = z.object({
  medicines: z.array(patientMedicineSchema),
  allergies: z.array(patientAllergySchema),
});
export type ReconciledIntake = z.infer<typeof reconciledIntakeSchema>;

/** Who took the intake's medicines and allergies into the record, and when. */
export const intakeReconciliationSchema = z.object({
  at: z.string(),
  byName: z.string().nullable(),
  medicines: z.number().int(),
  allergies: z.number().int(),
});

/**
 * The patient's intakes as the dashboard card shows them. 'accountClosed': the patient's own account
 * closure ended the link (not replaced by another). `changes` is empty until the paperwork is finished.
 */
export const staffIntakeDetailSchema = staffIntakeSchema.extend({
  status: z.enum(['active', 'completed', 'expired', 'revoked', 'locked', 'accountClosed']),
  changes: z.array(intakeChangeSchema),
  reconciled: intakeReconciliationSchema.nullable(),
});
export type StaffIntakeDetail = z.infer<typeof staffIntakeDetailSchema>;
