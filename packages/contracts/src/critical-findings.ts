import { z } from 'zod';
import { idSchema } from './validation.js';
import type { Role } from './roles.js';

/**
 * Critical findings (issue #24 §1, decision 0058): a safety item of an outcome instrument answered at or
 * above its threshold (the instruments package's `criticalItems`, e.g. PHQ-9 item 9 above 0). Shown red
 * on the staff screens until a clinician acknowledges it; who and when are kept.
 */
export const criticalFindingSchema = z.object({
  id: idSchema,
  responseId: idSchema,
  patientId: idSchema,
  appointmentId: idSchema.nullable(),
  formCode: z.number().int(),
  /** The instruments package's rule key, e.g. `phq9-item9`; the web names it from the instrument. */
  ruleKey: z.string(),
  itemId: z.string(),
  /** The answer code the patient gave. */
  answer: z.number().int(),
  createdAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
});
export type CriticalFinding = z.infer<typeof criticalFindingSchema>;

export const criticalFindingIdParamsSchema = z.object({ id: idSchema });

/** Clinicians: the patient's Doctor (own patients only) and the clinic's Admins. Staff and System Managers do not. */
export const CRITICAL_FINDING_ACKNOWLEDGERS: readonly Role[] = ['Admin', 'Doctor'];

export const canAcknowledgeCriticalFindings = (role: Role | null | undefined): boolean =>
  role !== null && role !== undefined && CRITICAL_FINDING_ACKNOWLEDGERS.includes(role);
