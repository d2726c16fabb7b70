import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import type { Role } from '@pathwell/contracts/roles';

/* What every patient-link route declares (form, intake, consent, pain journal, close account): its errors, rate limit, token and bearer. */

export const linkRouteErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  429: errorBodySchema,
};
export const staffRoles: readonly Role[] = ['Admin', 'Doctor', 'Staff', 'SystemManager'];
/** Open routes are rate limited per address; draft saves come once per answer, so they get more room. */
export const open = (max: number) => ({ public: true, rateLimit: { max, timeWindow: '1 minute' } });
// Malformed tokens are answered like unknown ones (404) by the service, so the schema only takes a string.
export const tokenParams = z.object({ token: z.string().max(200) });

export const bearerOf = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
};
