import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  surveyFilterSchema,
  surveyFormOptionsSchema,
  surveyItemsRequestSchema,
  surveyItemsSchema,
  surveyReportSchema,
} from '@pathwell/contracts/reports-survey';
import { requireSignedIn } from '../../context';
import * as service from './survey.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const access = { menuPath: '/reports/surveyreport', readReplica: true } as const;

/** The survey report (issue #14 §4, decision 0047): Reports roles of section 6; aggregates only. */
export async function surveyReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];

  app.post('/api/reports/surveyreport', {
    config: access,
    schema: {
      tags,
      summary: 'Assigned forms sent, opened and completed, per form and per week or month',
      body: surveyFilterSchema,
      response: { 200: surveyReportSchema, ...errors },
    },
    handler: async (request) => service.surveyReport(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/surveyreport/items', {
    config: access,
    schema: {
      tags,
      summary: "How a custom form version's questions were answered (free text only counted)",
      body: surveyItemsRequestSchema,
      response: { 200: surveyItemsSchema, ...errors },
    },
    handler: async (request) => service.surveyItems(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/reports/surveyreport/forms', {
    config: access,
    schema: {
      tags,
      summary: 'The custom forms the survey report can break down',
      response: { 200: surveyFormOptionsSchema, ...errors },
    },
    handler: async (request) => service.surveyFormOptions(requireSignedIn(request.ctx)),
  });
}
