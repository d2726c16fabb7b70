import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

const NUL = '\u0000';

/**
 * The field path (`patientPhoneNumbers.0.number`, as the error plugin writes zod's) of the first text
 * holding a NUL character, in values or in keys; `_` for the value itself; null when there is none.
 * A loop rather than recursion: a body nested thousands deep must not overflow the stack.
 */
export function nulFieldPath(value: unknown): string | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path.join('.') || '_';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Object.entries(current);
    for (const [key, child] of entries) {
      if (key.includes(NUL)) return path.join('.') || '_';
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/**
 * PostgreSQL text and jsonb cannot hold the NUL character (U+0000): a string with one fails in the
 * database, which answered 500 wherever a route stored or searched it (security review, issue #9). No
 * clinic text needs it, so every parsed input (path parameters, query, JSON body, keys included) is
 * checked here once, after sign-in and before the route's schema, and refused as a 400 naming the field.
 */
export const inputChecksPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const path = nulFieldPath(request.params) ?? nulFieldPath(request.query) ?? nulFieldPath(request.body);
    if (path !== null) {
      throw new AppError('VALIDATION', 'textWithNul', { fields: { [path]: 'textInvalid' } });
    }
  });
});
