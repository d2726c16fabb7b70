import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  performanceFilterSchema,
  performancePatientsRequestSchema,
  performancePatientsSchema,
  performanceReportSchema,
} from '@pathwell/contracts/reports-performance';
import { requireSignedIn } from '../../context';
import * as service from './performance.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** Section 6: Reports are for System Managers, Admins and Doctors (a Doctor sees their own patients). */
const access = { menuPath: '/reports/patientsperformancemeasure', readReplica: true } as const;

/** Performance measures (issue #14 §3, decision 0046): Pathwell's own, computed in SQL. */
export async function performanceReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];

  app.post('/api/reports/patientsperformancemeasure', {
    config: access,
    schema: {
      tags,
      summary:
        "Section 7 'patientsPerformanceMeasure': baseline PRO, follow-up PRO, MCID improvement and pain change for the date window",
      body: performanceFilterSchema,
      response: { 200: performanceReportSchema, ...errors },
    },
    handler: async (request) => service.performanceReport(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/patientsperformancemeasure/patients', {
    config: access,
    schema: {
      tags,
      summary: "The patients behind one measure's numerator, denominator or exclusions, paged by name",
      body: performancePatientsRequestSchema,
      response: { 200: performancePatientsSchema, ...errors },
    },
    handler: async (request) => service.performancePatients(requireSignedIn(request.ctx), request.body),
  });
}
