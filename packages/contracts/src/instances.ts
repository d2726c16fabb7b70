import { z } from 'zod';
import { idSchema } from './validation';

/** An IANA time zone name the runtime knows (`America/Chicago`). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Hours from UTC of a time zone at one moment (`America/Chicago` in January: -6). */
export function timeZoneOffsetHours(timeZone: string, at = new Date()): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((piece) => piece.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  const hours = Number(match[2]) + Number(match[3]) / 60;
  return match[1] === '-' ? -hours : hours;
}

const nameSchema = z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(120, 'tooLong');

/** An instance: one clinic's tenant (Instance Information). */
export const instanceSchema = z.object({
  id: idSchema,
  name: z.string(),
  organisationId: idSchema.nullable(),
  organisationName: z.string().nullable(),
  isActive: z.boolean(),
  timeZoneId: z.string().nullable(),
  userCount: z.number().int(),
  /** Whether the viewer may change the organisation, switch the instance off or delete it. */
  canManage: z.boolean(),
  createdAt: z.string(),
});
export type Instance = z.infer<typeof instanceSchema>;

export const createInstanceSchema = z.object({
  name: nameSchema,
  organisationId: idSchema.nullish().transform((value) => value ?? null),
  timeZoneId: z.string({ error: 'required' }).trim().min(1, 'required').max(100, 'invalid').refine(isTimeZone, 'invalid'),
});
export type CreateInstance = z.input<typeof createInstanceSchema>;
export type CreateInstanceParsed = z.output<typeof createInstanceSchema>;

export const updateInstanceSchema = z.object({
  name: nameSchema,
  organisationId: idSchema.nullish().transform((value) => value ?? null),
  isActive: z.boolean(),
});
export type UpdateInstance = z.input<typeof updateInstanceSchema>;
export type UpdateInstanceParsed = z.output<typeof updateInstanceSchema>;

/** Section 7 "get current instance id": the clinic this request acts for. */
export const currentInstanceSchema = z.object({ id: idSchema, name: z.string() });
export type CurrentInstance = z.infer<typeof currentInstanceSchema>;

/** A parent organisation (Clinic Information): groups the instances of one practice. */
export const organisationSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** Member instances the viewer may see, sorted by name. */
  instances: z.array(z.object({ id: idSchema, name: z.string(), isActive: z.boolean() })),
  canManage: z.boolean(),
  createdAt: z.string(),
});
export type Organisation = z.infer<typeof organisationSchema>;

export const saveOrganisationSchema = z.object({
  name: nameSchema,
  instanceIds: z.array(idSchema).max(500, 'tooLong').default([]),
});
export type SaveOrganisation = z.input<typeof saveOrganisationSchema>;
export type SaveOrganisationParsed = z.output<typeof saveOrganisationSchema>;
