import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  appointmentCodesQuerySchema,
  appointmentCodesSchema,
  knownCodesQuerySchema,
  knownCodesSchema,
} from '@pathwell/contracts/encounter-imports';
import { requireSignedIn } from '../../context';
import * as service from './appointment-codes.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Appointment codes (section 7): a patient's coded visits, and the codes a clinic uses. */
export async function appointmentCodeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Code pulls'];

  app.get('/api/appointmentcodes', {
    // Every role that sees the patient: a hot list shows staff the codes, a Doctor their own patients'.
    config: { anyRole: true },
    schema: {
      tags,
      summary: "A patient's visits with their diagnosis and procedure codes, newest first (audited)",
      querystring: appointmentCodesQuerySchema,
      response: { 200: appointmentCodesSchema, ...errors },
    },
    handler: async (request) => service.patientCodedVisits(requireSignedIn(request.ctx), request.query.patientId),
  });

  app.get('/api/appointmentcodes/known', {
    config: { menuPath: '/patientcampaigns/dashboard' },
    schema: {
      tags,
      summary: 'Codes used in the clinic, most patients first (autocomplete; `search` is a code prefix)',
      querystring: knownCodesQuerySchema,
      response: { 200: knownCodesSchema, ...errors },
    },
    handler: async (request) => service.knownCodes(requireSignedIn(request.ctx), request.query.search),
  });
}
