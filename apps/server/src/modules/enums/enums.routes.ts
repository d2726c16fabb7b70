import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enumerationQuerySchema, enumerationSchema } from '@pathwell/contracts/enumerations';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { timeZoneSchema } from '@pathwell/contracts/managed-lists';
import { getEnumeration, listTimeZones } from './enums.service';

/**
 * Enumerations and time zones are open: patient-facing forms (no staff session) need states,
 * countries, languages and time zones, and nothing here belongs to a clinic.
 */
export async function enumRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/enums', {
    config: { public: true },
    schema: {
      tags: ['Reference data'],
      summary: 'One enumeration of specification section 3, with English and Spanish labels',
      querystring: enumerationQuerySchema,
      response: { 200: enumerationSchema, 400: errorBodySchema },
    },
    handler: async (request) => getEnumeration(request.query.type),
  });

  app.get('/api/timezones', {
    config: { public: true },
    schema: {
      tags: ['Reference data'],
      summary: 'Time zones (id and name), US zones first',
      response: { 200: z.array(timeZoneSchema) },
    },
    handler: async () => listTimeZones(),
  });
}
