import { z } from 'zod';

export const errorCodes = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  /** A patient link that was used, expired, revoked or locked: 410, `error` is its LinkStatus. */
  'GONE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL',
  /** 503: the database is restarting or unreachable; retry after Retry-After seconds. */
  'UNAVAILABLE',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/**
 * Every error body. `fields` maps a field path to a validation message key of `messages.ts`, so that
 * each client shows it in the user's language; `messageKey` and `params` do the same for `error`.
 * `msg` is only set for the invalid-token answer, whose shape the specification fixes (section 8:
 * msg 'Token is not valid').
 */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.enum(errorCodes),
  fields: z.record(z.string(), z.string()).optional(),
  /** The message's key in `server-messages.ts` (or `messages.ts`) and its parameters: clients show it translated. */
  messageKey: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  msg: z.string().optional(),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const TOKEN_NOT_VALID = 'Token is not valid';
