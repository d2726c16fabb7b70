import { z } from 'zod';
import { roleSchema } from './roles';
import { emailSchema, idSchema, newPasswordSchema, passwordInputSchema, twoFactorCodeSchema } from './validation';

const nameSchema = z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(100, 'tooLong');

export const signUpSchema = z.object({ email: emailSchema, name: nameSchema, password: newPasswordSchema });
export type SignUp = z.infer<typeof signUpSchema>;

export const signInSchema = z.object({ email: emailSchema, password: passwordInputSchema });
export type SignIn = z.infer<typeof signInSchema>;

export const authenticatedSchema = z.object({
  token: z.string(),
  id: idSchema,
  role: roleSchema,
  isParent: z.boolean(),
  isChild: z.boolean(),
});
export type Authenticated = z.infer<typeof authenticatedSchema>;

/** Sign-in answers either a session or, for users with two-factor sign-in, a pending challenge. */
export const signInResultSchema = z.union([
  authenticatedSchema.extend({ twoFactorRequired: z.literal(false) }),
  z.object({ twoFactorRequired: z.literal(true), challengeId: idSchema }),
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

export const twoFactorVerifySchema = z.object({ challengeId: idSchema, code: twoFactorCodeSchema });
export const twoFactorSendSchema = z.object({ challengeId: idSchema });

export const userProfileSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  role: roleSchema,
  isParent: z.boolean(),
  isChild: z.boolean(),
  twoFactorEnabled: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Profile images travel as data URLs of small PNG, JPEG or WebP pictures. */
export const PROFILE_IMAGE_MAX_CHARS = 400_000;
const profileImageSchema = z
  .string()
  .max(PROFILE_IMAGE_MAX_CHARS, 'tooLong')
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, 'invalid')
  .nullable();

export const updateMyAccountSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  profileImage: profileImageSchema,
  /** Needed only when the email changes. */
  currentPassword: z.string().max(200, 'tooLong').optional(),
});
export type UpdateMyAccount = z.infer<typeof updateMyAccountSchema>;

export const forgetPasswordSchema = z.object({ email: emailSchema });

function passwordsMatch(value: { newPassword: string; confirmNewPassword: string }) {
  return value.newPassword === value.confirmNewPassword;
}
const confirmSchema = z.string({ error: 'confirmPasswordRequired' }).min(1, 'confirmPasswordRequired').max(200, 'tooLong');

export const changePasswordSchema = z
  .object({
    id: idSchema,
    currentPassword: z.string({ error: 'previousPasswordRequired' }).min(1, 'previousPasswordRequired').max(200, 'tooLong'),
    newPassword: newPasswordSchema,
    confirmNewPassword: confirmSchema,
  })
  .refine(passwordsMatch, { message: 'passwordsMismatch', path: ['confirmNewPassword'] })
  .refine((value) => value.newPassword !== value.currentPassword, {
    message: 'passwordSameAsCurrent',
    path: ['newPassword'],
  });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

export const setPasswordSchema = z
  .object({
    id: idSchema,
    token: z.string().min(1, 'required').max(200, 'tooLong'),
    newPassword: newPasswordSchema,
    confirmNewPassword: confirmSchema,
  })
  .refine(passwordsMatch, { message: 'passwordsMismatch', path: ['confirmNewPassword'] });
export type SetPassword = z.infer<typeof setPasswordSchema>;

export const confirmSignUpSchema = z.object({ id: idSchema, token: z.string().min(1, 'required').max(200, 'tooLong') });
export const resendWelcomeSchema = z.object({ id: idSchema });
export const twoFactorToggleSchema = z.object({ enabled: z.boolean() });

export const messageSchema = z.object({ message: z.string() });

export const clinicSchema = z.object({ id: idSchema, name: z.string() });
export type Clinic = z.infer<typeof clinicSchema>;

export const doctorSchema = z.object({ id: idSchema, firstName: z.string(), lastName: z.string() });
export type Doctor = z.infer<typeof doctorSchema>;
