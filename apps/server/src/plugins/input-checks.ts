import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

const NUL = '\u0000';

/**
 * How deep a JSON body may nest. The deepest contract (a custom form's questions with their options
 * and conditions) stays under 10; 64 leaves room and still stops a body of 100,000 nested arrays
 * before anything walks it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests deeper than `limit`, read once from left to right without parsing
 * (linear in its length; brackets inside strings do not count).
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92 /* \ */) index++;
      else if (code === 34 /* " */) inString = false;
      continue;
    }
    if (code === 34) inString = true;
    else if (code === 91 /* [ */ || code === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (code === 93 /* ] */ || code === 125 /* } */) depth--;
  }
  return false;
}

interface Pending {
  value: unknown;
  key: string;
  parent: Pending | null;
}

const pathOf = (entry: Pending): string => {
  const keys: string[] = [];
  for (let current: Pending | null = entry; current?.parent; current = current.parent) keys.push(current.key);
  return keys.reverse().join('.') || '_';
};

/**
 * The field path (`patientPhoneNumbers.0.number`, as the error plugin writes zod's) of the first text
 * holding a NUL character, in values or in keys; `_` for the value itself; null when there is none.
 * A loop rather than recursion (a body nested thousands deep must not overflow the stack), and each
 * entry points at its parent instead of copying the path, so the walk is linear in the input's size;
 * the path is spelled out only for the one field it reports.
 */
export function nulFieldPath(value: unknown): string | null {
  const pending: Pending[] = [{ value, key: '', parent: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const current = next.value;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return pathOf(next);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const key in current) {
      if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
      if (key.includes(NUL)) return pathOf(next);
      pending.push({ value: (current as Record<string, unknown>)[key], key, parent: next });
    }
  }
  return null;
}

/**
 * PostgreSQL text and jsonb cannot hold the NUL character (U+0000): a string with one fails in the
 * database, which answered 500 wherever a route stored or searched it (security review, issue #9). No
 * clinic text needs it, so every parsed input (path parameters, query, JSON body, keys included) is
 * checked here once, after sign-in and before the route's schema, and refused as a 400 naming the field.
 * A JSON body nested deeper than MAX_JSON_DEPTH is refused before it is parsed (issue #24 §0).
 */
export const inputChecksPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new AppError('VALIDATION', 'jsonTooDeep', { params: { limit: MAX_JSON_DEPTH }, fields: { _: 'invalid' } }), undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
  app.addHook('preValidation', async (request) => {
    const path = nulFieldPath(request.params) ?? nulFieldPath(request.query) ?? nulFieldPath(request.body);
    if (path !== null) {
      throw new AppError('VALIDATION', 'textWithNul', { fields: { [path]: 'textInvalid' } });
    }
  });
});
