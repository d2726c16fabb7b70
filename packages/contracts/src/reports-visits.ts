import { z } from 'zod';
import { LANGUAGES } from './constants';
import { checkReportPeriodFilter, reportPeriodFilterFields, reportPeriods } from './reports-survey';
import { idSchema } from './validation';

/**
 * Office visits (/reports/officevisits; issue #14 §4; decision 0047): appointments per week or month of
 * the clinic's calendar by provider, appointment type, status and new vs follow-up.
 */

export const officeVisitsFilterSchema = z
  .object({
    ...reportPeriodFilterFields,
    appointmentTypeIds: z.array(idSchema).max(100, 'tooLong').default([]),
    language: z.enum(LANGUAGES).default('en'),
  })
  .superRefine(checkReportPeriodFilter);
export type OfficeVisitsFilter = z.infer<typeof officeVisitsFilterSchema>;
export type OfficeVisitsFilterInput = z.input<typeof officeVisitsFilterSchema>;

/** The appointment's reason; appointments without one are 'unknown'. */
export const visitReasons = ['new_patient', 'follow_up', 'unknown'] as const;
export type VisitReason = (typeof visitReasons)[number];

const counts = {
  total: z.number().int(),
  completed: z.number().int(),
  noShow: z.number().int(),
  /** Upcoming (2) and checking in (1) not yet resolved. */
  open: z.number().int(),
  /** Deleted before they took place: Pathwell's cancellation (decision 0047). */
  cancelled: z.number().int(),
  /** noShow ÷ (completed + noShow), 0–1; null when neither. */
  noShowRate: z.number().nullable(),
};
export const visitCountsSchema = z.object(counts);
export type VisitCounts = z.infer<typeof visitCountsSchema>;

const provider = z.object({ id: idSchema, name: z.string() }).nullable();
const appointmentType = z.object({ id: idSchema, name: z.string() }).nullable();

export const officeVisitRowSchema = z.object({
  /** First day (YYYY-MM-DD, clinic calendar) of the week (Sunday) or month. */
  period: z.string(),
  provider,
  appointmentType,
  reason: z.enum(visitReasons),
  ...counts,
});
export type OfficeVisitRow = z.infer<typeof officeVisitRowSchema>;

export const officeVisitsReportSchema = z.object({
  period: z.enum(reportPeriods),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z.array(officeVisitRowSchema),
  byPeriod: z.array(z.object({ period: z.string(), ...counts })),
  byProvider: z.array(z.object({ provider, ...counts })),
  byType: z.array(z.object({ appointmentType, ...counts })),
  byReason: z.array(z.object({ reason: z.enum(visitReasons), ...counts })),
  totals: visitCountsSchema,
});
export type OfficeVisitsReport = z.infer<typeof officeVisitsReportSchema>;
