import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { officeVisitsFilterSchema, officeVisitsReportSchema } from '@pathwell/contracts/reports-visits';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as service from './office-visits.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const access = { menuPath: '/reports/officevisits', readReplica: true } as const;

function sendCsv(reply: FastifyReply, file: { fileName: string; content: Buffer }) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', file.fileName))
    .header('Cache-Control', 'no-store')
    .send(file.content);
}

/** Office visits (issue #14 §4, decision 0047): Reports roles of section 6; aggregates only. */
export async function officeVisitsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];

  app.post('/api/reports/officevisits', {
    config: access,
    schema: {
      tags,
      summary: 'Appointments per week or month by provider, type, status and new vs follow-up',
      body: officeVisitsFilterSchema,
      response: { 200: officeVisitsReportSchema, ...errors },
    },
    handler: async (request) => service.officeVisits(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/officevisits/export', {
    config: access,
    schema: {
      tags,
      summary: 'The office visits rows as CSV (UTF-8 with byte-order mark)',
      body: officeVisitsFilterSchema,
      response: { 200: z.string().describe('CSV file, UTF-8 with byte-order mark'), ...errors },
    },
    handler: async (request, reply) =>
      sendCsv(reply, await service.exportOfficeVisits(requireSignedIn(request.ctx), request.body)),
  });
}
