import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  summaryExportRequestSchema,
  summaryFilterSchema,
  summaryPatientsRequestSchema,
  summaryPatientsSchema,
  summaryReportSchema,
} from '@pathwell/contracts/reports-summary';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as service from './summary.service';
import { exportSummary } from './summary-export.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
// A Buffer, not JSON: typed as any for the serializer, shown in OpenAPI as a binary string.
const fileResponse = z.any().meta({
  type: 'string',
  format: 'binary',
  description: 'CSV (UTF-8 with byte-order mark) or XLSX file, sent as an attachment',
});

/**
 * The data sandbox (issue #14 §1, decision 0044). Reports' side-menu rule: System Manager, Admin and
 * Doctor (a Doctor's numbers are always their own patients'); Staff gets 403.
 */
export async function summaryReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];
  const config = { menuPath: '/reports/summary', readReplica: true } as const;
  const report = {
    config,
    schema: {
      tags,
      summary: 'Data sandbox: the cohort’s mean score (95 % CI), patients and MCID share at baseline and every visit window',
      body: summaryFilterSchema,
      response: { 200: summaryReportSchema, ...errors },
    },
  };

  app.post('/api/reports/summary', {
    ...report,
    handler: async (request) => service.summaryReport(requireSignedIn(request.ctx), request.body),
  });

  // Section 7's name for the same report.
  app.post('/api/patients/reportsummary', {
    ...report,
    handler: async (request) => service.summaryReport(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/summary/patients', {
    config,
    schema: {
      tags,
      summary: 'Data sandbox drill-down: the patients behind one point, by last name, paged',
      body: summaryPatientsRequestSchema,
      response: { 200: summaryPatientsSchema, ...errors },
    },
    handler: async (request) => service.summaryPatients(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/summary/export', {
    config,
    schema: {
      tags,
      summary: 'Data sandbox as CSV or XLSX: the aggregate, or every patient row of every point',
      body: summaryExportRequestSchema,
      response: { 200: fileResponse, ...errors },
    },
    handler: async (request, reply) => {
      const file = await exportSummary(requireSignedIn(request.ctx), request.body);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', contentDisposition('attachment', file.fileName))
        .header('Cache-Control', 'no-store')
        .send(file.content);
    },
  });
}
