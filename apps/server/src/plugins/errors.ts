import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type ErrorBody, type ErrorCode } from '@pathwell/contracts/errors';
import { isValidationMessageKey } from '@pathwell/contracts/messages';
import { renderServerMessage, type MessageKey } from '@pathwell/contracts/server-messages';
import { AppError } from '../lib/app-error';
import { ClientGone, RequestTransactionEnded } from '../db/tenancy';

/** An error body naming its message by key, with the English text for API users. */
const bodyOf = (code: ErrorCode, messageKey: MessageKey, extra: Partial<ErrorBody> = {}): ErrorBody => ({
  error: renderServerMessage(messageKey, extra.params, 'en'),
  code,
  messageKey,
  ...extra,
});

/** The message of a 4xx that Fastify or a plugin raised itself (no route code ran). */
const messageForStatus: Record<number, MessageKey> = {
  404: 'notFound',
  413: 'requestTooLarge',
  415: 'mediaTypeUnsupported',
  429: 'tooManyRequests',
};

const codeForStatus: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'VALIDATION',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** `/email` → `email`, `/phones/0/number` → `phones.0.number`. */
const fieldPath = (instancePath: string) => instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';

const DATABASE_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
]);

/** A database that is down or restarting, as node-postgres reports it (possibly wrapped by Drizzle). */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && DATABASE_UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (
      typeof candidate.message === 'string' &&
      /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
        candidate.message,
      )
    )
      return true;
    current = candidate.cause;
  }
  return false;
}

/** The one place where errors become HTTP answers: `{ error, code, fields? }`, never a stack trace. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ClientGone || (error instanceof RequestTransactionEnded && request.clientGone)) {
      // Nobody is listening; the transaction has been rolled back. Worth a line, not an alarm.
      request.log.info('client closed the request before its answer');
      return reply.status(499).send(bodyOf('UNAVAILABLE', 'serviceUnavailable'));
    }
    if (error instanceof AppError) {
      if (error.options.retryAfterSeconds) reply.header('Retry-After', String(error.options.retryAfterSeconds));
      const body: ErrorBody = { error: error.message, code: error.code, messageKey: error.messageKey };
      if (error.options.params) body.params = error.options.params;
      if (error.options.fields) body.fields = error.options.fields;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = fieldPath(issue.instancePath);
        if (!fields[path]) fields[path] = issue.message && isValidationMessageKey(issue.message) ? issue.message : 'invalid';
      }
      const first = Object.values(fields)[0];
      const messageKey = first && isValidationMessageKey(first) ? first : 'requestInvalid';
      return reply.status(400).send(bodyOf('VALIDATION', messageKey, { fields }));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send(bodyOf('INTERNAL', 'internalError', { requestId: request.id }));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', '60');
      // Fastify's own texts (e.g. an empty JSON body) stay in `error` for API users; staff see the key's.
      const messageKey = messageForStatus[status] ?? 'requestInvalid';
      return reply.status(status).send({ ...bodyOf(codeForStatus[status] ?? 'VALIDATION', messageKey), error: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: tell the client to retry (with the same
      // idempotency key) instead of reporting a fault in the request.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return reply.status(503).send(bodyOf('UNAVAILABLE', 'serviceUnavailable'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(bodyOf('INTERNAL', 'internalError', { requestId: request.id }));
  });
});
