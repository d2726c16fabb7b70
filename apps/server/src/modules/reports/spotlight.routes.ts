import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  spotlightFilterSchema,
  spotlightPageSchema,
  spotlightPdfQuerySchema,
  successStorySavedSchema,
  successStorySchema,
} from '@pathwell/contracts/reports-spotlight';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as spotlight from './spotlight.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * The patient spotlight (issue #14 §2, decision 0045): the report and its PDF follow the Reports rule of
 * section 6 (System Manager, Admin, Doctor — a Doctor only for their own patients); recording a patient's
 * success story follows the patient list, so the front desk that takes the patient's consent can record it.
 */
export async function spotlightReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];
  const report = { menuPath: '/reports/patientsspotlight' };

  app.post('/api/reports/patientsspotlight', {
    config: report,
    schema: {
      tags,
      summary:
        'Patients improved by at least improvementFactor × MCID of the measure (pain, or a form with a published MCID) from baseline to a score four or more weeks later',
      body: spotlightFilterSchema,
      response: { 200: spotlightPageSchema, ...errors },
    },
    handler: async (request) => spotlight.patientsSpotlight(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/patients/patientsspotlightpdf', {
    config: report,
    schema: {
      tags,
      summary: "One patient's spotlight as a one-page PDF for their referring provider (English or Spanish)",
      querystring: spotlightPdfQuerySchema,
      response: { 200: z.any(), ...errors },
    },
    handler: async (request, reply) => {
      const { pdf, fileName } = await spotlight.spotlightPdf(requireSignedIn(request.ctx), request.query);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition('attachment', fileName))
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  });

  app.patch('/api/patients/hassuccessstorybeenshared', {
    config: { menuPath: '/patients/list' },
    schema: {
      tags,
      summary: "Record a patient's success story and whether they agreed to share it (printed on the spotlight PDF only then)",
      body: successStorySchema,
      response: { 200: successStorySavedSchema, ...errors },
    },
    handler: async (request) => spotlight.saveSuccessStory(requireSignedIn(request.ctx), request.body),
  });
}
