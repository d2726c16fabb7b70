import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  CRITICAL_FINDING_ACKNOWLEDGERS,
  criticalFindingIdParamsSchema,
  criticalFindingSchema,
} from '@pathwell/contracts/critical-findings';
import { requireSignedIn } from '../../context';
import { acknowledgeFinding } from './critical-findings.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * Critical findings (decision 0058). They are read with the responses and dashboards that show them;
 * this module's own route is the acknowledgement, for the patient's Doctor and the clinic's Admins.
 */
export async function criticalFindingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/criticalfindings/:id/acknowledge', {
    config: { roles: CRITICAL_FINDING_ACKNOWLEDGERS },
    schema: {
      tags: ['Form responses'],
      summary: 'Acknowledge a critical finding (who and when are kept; the first acknowledgement stands)',
      params: criticalFindingIdParamsSchema,
      response: { 200: criticalFindingSchema, ...errors },
    },
    handler: async (request) => acknowledgeFinding(requireSignedIn(request.ctx), request.params.id),
  });
}
