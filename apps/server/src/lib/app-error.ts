import type { ErrorCode } from '@pathwell/contracts/errors';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import { renderServerMessage, type MessageKey, type MessageParams, type NotFoundKey } from '@pathwell/contracts/server-messages';

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

interface AppErrorOptions {
  params?: MessageParams;
  fields?: Record<string, ValidationMessageKey>;
  retryAfterSeconds?: number;
}

/**
 * The one error type services throw; the error plugin turns it into HTTP. It names its message by key
 * (`server-messages.ts`), so the web shows it in the user's language; `message` is the English text.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    readonly options: AppErrorOptions = {},
  ) {
    super(renderServerMessage(messageKey, options.params, 'en'));
    this.status = statusOf[code];
  }
}

export const notFound = (key: NotFoundKey = 'recordNotFound') => new AppError('NOT_FOUND', key);
/** A refusal about one field; the answer's message is the field's own unless a more precise one is named. */
export const fieldError = (field: string, key: ValidationMessageKey, messageKey: MessageKey = key) =>
  new AppError('VALIDATION', messageKey, { fields: { [field]: key } });
