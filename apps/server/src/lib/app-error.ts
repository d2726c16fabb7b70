import type { ErrorCode } from '@pathwell/contracts/errors';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';

const statusOf: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  GONE: 410,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** The one error type services throw; the error plugin turns it into HTTP. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { fields?: Record<string, ValidationMessageKey>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = statusOf[code];
  }
}

export const notFound = (what = 'Record') => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = () => new AppError('FORBIDDEN', 'You are not allowed to do this');
export const fieldError = (field: string, key: ValidationMessageKey, message: string) =>
  new AppError('VALIDATION', message, { fields: { [field]: key } });
