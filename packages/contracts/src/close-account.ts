import { z } from 'zod';
import { idSchema } from './validation.js';

/**
 * A patient closes their account themselves (issue #12, decision 0036): from the intake they ask for it,
 * an email to the address on file carries a confirmation link (/patients/closeaccount/{patientId}/{token}),
 * and opening it and confirming closes the account. Records stay with the clinic as the law requires.
 */
export const CLOSE_ACCOUNT_LINK_HOURS = 24;
export const CLOSE_ACCOUNT_REQUESTS_PER_DAY = 3;

export const closeAccountRequestedSchema = z.object({
  /** The address the confirmation went to, masked (a***@example.com). */
  sentTo: z.string(),
  expiresInHours: z.number().int(),
});
export type CloseAccountRequested = z.infer<typeof closeAccountRequestedSchema>;

export const closeAccountParamsSchema = z.object({ patientId: idSchema, token: z.string().max(200) });
export const closeAccountConfirmationSchema = closeAccountParamsSchema;
export type CloseAccountConfirmation = z.infer<typeof closeAccountConfirmationSchema>;

/** ready: the patient can confirm; closed: the account is closed; expired: the link is no longer good. */
export const closeAccountStateSchema = z.object({
  clinicName: z.string(),
  state: z.enum(['ready', 'closed', 'expired']),
  language: z.enum(['en', 'es']),
});
export type CloseAccountState = z.infer<typeof closeAccountStateSchema>;
