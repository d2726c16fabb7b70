import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { providerBaselinesFilterSchema, providerBaselinesSchema } from '@pathwell/contracts/reports-referrals';
import { requireSignedIn } from '../../context';
import * as service from './provider-baselines.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * The Provider Appointment Dashboard (issue #14 §4, decision 0048): Reports roles of section 6 through
 * the page's menu rule, and only while the clinic has `enableProviderAppointmentDashboard` on (403 otherwise).
 */
export async function providerBaselineRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/patientappointments/providerappointmentreport', {
    config: { menuPath: '/reports/providerbaselines' },
    schema: {
      tags: ['Reports'],
      summary:
        "Per provider: new patients' baseline pain and scores with the latest follow-up, appointments by status, intake completed before the visit",
      body: providerBaselinesFilterSchema,
      response: { 200: providerBaselinesSchema, ...errors },
    },
    handler: async (request) => service.providerBaselines(requireSignedIn(request.ctx), request.body),
  });
}
