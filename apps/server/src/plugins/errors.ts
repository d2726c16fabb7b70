import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type ErrorBody, type ErrorCode } from '@pathwell/contracts/errors';
import { isValidationMessageKey, validationMessages } from '@pathwell/contracts/messages';
import { AppError } from '../lib/app-error';

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
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && DATABASE_UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (
      typeof candidate.message === 'string' &&
      /Connection terminated|connection is closed|Client has encountered a connection error/i.test(candidate.message)
    )
      return true;
    current = candidate.cause;
  }
  return false;
}

/** The one place where errors become HTTP answers: `{ error, code, fields? }`, never a stack trace. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.options.retryAfterSeconds) reply.header('Retry-After', String(error.options.retryAfterSeconds));
      const body: ErrorBody = { error: error.message, code: error.code };
      if (error.options.fields) body.fields = error.options.fields;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = fieldPath(issue.instancePath);
        if (!fields[path]) fields[path] = issue.message && isValidationMessageKey(issue.message) ? issue.message : 'invalid';
      }
      const first = Object.entries(fields)[0];
      const firstText = first && isValidationMessageKey(first[1]) ? validationMessages[first[1]].en : 'Invalid input';
      return reply.status(400).send({ error: firstText, code: 'VALIDATION', fields } satisfies ErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Internal error', code: 'INTERNAL', requestId: request.id } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', '60');
      return reply.status(status).send({ error: error.message, code: codeForStatus[status] ?? 'VALIDATION' } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: tell the client to retry (with the same
      // idempotency key) instead of reporting a fault in the request.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return reply.status(503).send({ error: 'Service unavailable, try again shortly', code: 'UNAVAILABLE' } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({ error: 'Internal error', code: 'INTERNAL', requestId: request.id } satisfies ErrorBody);
  });
});
