import { z } from 'zod';
import { outboxStatuses } from './messaging';
import { clinicSchema, userProfileSchema } from './users';
import { idSchema } from './validation';

/** Instance flags that shape the menu (specification section 6). */
export const menuFlagsSchema = z.object({
  devicePartnerMode: z.boolean(),
  programMode: z.boolean(),
  portalPro: z.boolean(),
  mainstay: z.boolean(),
  campaignsEnabled: z.boolean(),
  campaignOnly: z.boolean(),
  /** `enableProviderAppointmentDashboard`: the Provider Appointment Dashboard is in the menu. */
  providerAppointmentDashboard: z.boolean(),
});
export type MenuFlags = z.infer<typeof menuFlagsSchema>;

/** What the app shell needs after sign-in: who, for which clinic, and that clinic's shell settings. */
export const sessionContextSchema = z.object({
  user: userProfileSchema,
  instance: clinicSchema.extend({
    logoUrl: z.string().nullable(),
    /** The IANA zone the clinic's clock runs on; every date shown to staff is in it. */
    timeZoneId: z.string(),
    /** The zone's offset now (the specification's read-out); it changes with daylight saving. */
    timeZoneOffsetHours: z.number(),
  }),
  allClinics: z.boolean(),
  clinics: z.array(clinicSchema),
  idleTimeoutMinutes: z.number().int().positive(),
  flags: menuFlagsSchema,
  demoMode: z.boolean(),
});
export type SessionContext = z.infer<typeof sessionContextSchema>;

export const outboxMessageSchema = z.object({
  id: idSchema,
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  template: z.string(),
  status: z.enum(outboxStatuses),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgresql']),
  migrations: z.object({ applied: z.number().int(), latest: z.string().nullable() }),
});
