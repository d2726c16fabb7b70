import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { legalTextParamsSchema, legalTextQuerySchema, legalTextSchema } from '@pathwell/contracts/legal-texts';
import { legalText } from './legal.service';

/** The clinic's terms and privacy pages (issue #12): open, read by patients before any sign-in. */
export async function legalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/public/legal/:page', {
    config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['Legal'],
      summary:
        "Terms and conditions or privacy policy, in English and Spanish: the clinic's own text when `clinic` names one and it has written it, else Pathwell's default",
      params: legalTextParamsSchema,
      querystring: legalTextQuerySchema,
      response: { 200: legalTextSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request) => legalText(request.ctx, request.params.page, request.query.clinic),
  });
}
