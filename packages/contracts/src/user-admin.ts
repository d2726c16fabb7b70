import { z } from 'zod';
import { DOCTOR_SELECTOR_PAGE_SIZE, PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';
import { roleNames, roleRank, roleSchema, type Role } from './roles';
import { PROFILE_IMAGE_MAX_CHARS } from './users';
import { emailSchema, idSchema, PIN_PATTERN } from './validation';
import { listTotalShape, paginationFilterSchemaOf } from './paging';

/** Clinical provider types of specification section 3 "Enumerations". */
export const clinicalProviderTypes = ['Doctor', 'Nurse Practitioner', 'Physician Assistant'] as const;
export const clinicalProviderTypeSchema = z.enum(clinicalProviderTypes, { error: 'required' });
export type ClinicalProviderType = z.infer<typeof clinicalProviderTypeSchema>;

/**
 * National Provider Identifier: 10 digits whose last one is a Luhn check digit computed over the
 * first nine with the card-issuer prefix 80840 (CMS, "Requirements for NPI check digit"), which is
 * the same as adding 24 to the Luhn sum of the nine digits.
 */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = value.split('').map(Number);
  let sum = 24;
  for (let index = 0; index < 9; index++) {
    // Counting from the right of the nine digits, every other one (starting with the rightmost) doubles.
    const digit = digits[index]!;
    if (index % 2 === 0) {
      const doubled = digit * 2;
      sum += doubled > 9 ? doubled - 9 : doubled;
    } else {
      sum += digit;
    }
  }
  return (10 - (sum % 10)) % 10 === digits[9];
}

/** Roles an actor may give: none above their own (docs/decisions/0009-user-administration-rules.md). */
export function grantableRoles(actor: Role): Role[] {
  return roleSchema.options.filter((role) => roleRank[role] <= roleRank[actor]);
}

const nameSchema = z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(100, 'tooLong');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'tooLong')
    .nullish()
    .transform((value) => value || null);

const profileImageSchema = z
  .string()
  .max(PROFILE_IMAGE_MAX_CHARS, 'tooLong')
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, 'invalid')
  .nullable();

/** `pageSize` up to the doctor selector's 999 (section 9); page 0 is the first. */
export const paginationFilterSchema = paginationFilterSchemaOf({ maxPageSize: DOCTOR_SELECTOR_PAGE_SIZE });

const filterText = z
  .string()
  .trim()
  .max(100, 'tooLong')
  .nullish()
  .transform((value) => value || undefined);

/** Filter of `POST /api/users/fetchAll` (section 7 Users); `status` 1 is active users only, 0 inactive. */
export const userFilterSchema = z.object({
  paginationFilter: paginationFilterSchema.default({ pageSize: PAGE_SIZE_DEFAULT, pageNumber: PAGE_NUMBER_DEFAULT }),
  firstName: filterText,
  lastName: filterText,
  email: filterText,
  role: z
    .union([roleSchema, z.literal('')])
    .nullish()
    .transform((value) => value || undefined),
  status: z.union([z.literal(0), z.literal(1)]).nullish(),
});
export type UserFilter = z.input<typeof userFilterSchema>;
export type UserFilterParsed = z.output<typeof userFilterSchema>;

export const userAccountStatuses = ['active', 'invited', 'inactive'] as const;

/** A user as the System Users pages see it: an allow-list, no hashes, no picture in lists. */
export const systemUserSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: roleSchema,
  /** invited: has not set a password yet; inactive: switched off by an administrator. */
  status: z.enum(userAccountStatuses),
  isActive: z.boolean(),
  isParent: z.boolean(),
  isChild: z.boolean(),
  twoFactorEnabled: z.boolean(),
  credentials: z.string().nullable(),
  npi: z.string().nullable(),
  clinicalProviderType: clinicalProviderTypeSchema.nullable(),
  hasPin: z.boolean(),
  homeClinicId: idSchema.nullable(),
  /** Clinics the user may act for (home included) among those the viewer may see. */
  clinicIds: z.array(idSchema),
  /** Whether the viewer may edit, switch off, delete or reset this user. */
  canManage: z.boolean(),
  createdAt: z.string(),
});
export type SystemUser = z.infer<typeof systemUserSchema>;

export const systemUserDetailSchema = systemUserSchema.extend({ profileImage: z.string().nullable() });
export type SystemUserDetail = z.infer<typeof systemUserDetailSchema>;

export const userPageSchema = z.object({
  ...listTotalShape,
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(systemUserSchema),
});
export type UserPage = z.infer<typeof userPageSchema>;

const userFields = {
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  role: z.enum(roleNames, { error: 'required' }),
  isParent: z.boolean().default(false),
  isChild: z.boolean().default(false),
  /** Extra clinics of a parent user; the home clinic is always kept. */
  clinicIds: z.array(idSchema).max(200, 'tooLong').default([]),
  credentials: optionalText(50),
  npi: z
    .string()
    .trim()
    .max(10, 'npiInvalid')
    .nullish()
    .transform((value) => value || null)
    .refine((value) => value === null || isValidNpi(value), 'npiInvalid'),
  clinicalProviderType: clinicalProviderTypeSchema.nullish(),
  twoFactorEnabled: z.boolean().default(false),
  isActive: z.boolean().default(true),
  profileImage: profileImageSchema.optional(),
};

type DoctorFields = { role: Role; clinicalProviderType?: ClinicalProviderType | null };

function doctorNeedsProviderType(value: DoctorFields, context: z.RefinementCtx) {
  if (value.role === 'Doctor' && !value.clinicalProviderType) {
    context.addIssue({ code: 'custom', path: ['clinicalProviderType'], message: 'required' });
  }
}

/** `POST /api/users/register`: the new user is invited by email to set a password. */
export const createUserSchema = z.object(userFields).superRefine(doctorNeedsProviderType);
export type CreateUser = z.input<typeof createUserSchema>;
export type CreateUserParsed = z.output<typeof createUserSchema>;

/** `PUT /api/users/{id}`. */
export const updateUserSchema = createUserSchema;
export type UpdateUser = CreateUser;

/** Section 5: the web treats a user update as done only with HTTP 2xx and `isSuccess`. */
export const updateUserResultSchema = systemUserDetailSchema.extend({ isSuccess: z.literal(true) });

/** Section 7 `sendwelcomeemail` (id, role, origin url); role and origin are accepted but the link uses the server's public address. */
export const sendWelcomeEmailSchema = z.object({
  id: idSchema,
  role: z.string().max(50).optional(),
  originUrl: z.string().max(2000).optional(),
});

export const pinValueSchema = z.string({ error: 'pinInvalid' }).max(6, 'pinInvalid').regex(PIN_PATTERN, 'pinInvalid');
export const setPinSchema = z.object({ pin: pinValueSchema });
export const validatePinSchema = z.object({ pin: pinValueSchema });
export const validatePinResultSchema = z.object({ isValid: z.boolean() });

export const userTwoFactorSchema = z.object({ enabled: z.boolean() });
export const userActiveSchema = z.object({ isActive: z.boolean() });

/** Wrong PIN attempts allowed per user within the window before validation answers 429. */
export const PIN_MAX_FAILURES = 5;
export const PIN_WINDOW_MINUTES = 15;
