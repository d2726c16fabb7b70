import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityActorsQuerySchema,
  activityActorsSchema,
  activityExportSchema,
  activityFilterSchema,
  activityPageSchema,
  loginDetailsExportSchema,
  loginDetailsFilterSchema,
  loginDetailsPageSchema,
} from '@pathwell/contracts/activity';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as activity from './activity.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const csvResponse = z.string().describe('CSV file, UTF-8 with byte-order mark');

function sendCsv(reply: FastifyReply, file: activity.CsvFile) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', file.fileName))
    .header('Cache-Control', 'no-store')
    .send(file.content);
}

/**
 * Reading the tamper-evident activity log of the acting clinic (the writer is audit.service). Both
 * pages are System Manager and Admin only, by the side-menu access table.
 */
export async function activityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Activity logs'];
  const activityLogs = { menuPath: '/activitylogs' };
  const loginDetails = { menuPath: '/logindetails' };

  app.post('/api/activitylogs/filtered', {
    config: activityLogs,
    schema: {
      tags,
      summary: 'Activity log of the acting clinic, newest first, filtered and paged',
      body: activityFilterSchema,
      response: { 200: activityPageSchema, ...errors },
    },
    handler: async (request) => activity.listActivity(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/activitylogs/export', {
    config: activityLogs,
    schema: {
      tags,
      summary: 'Activity log as CSV (same filters, no paging)',
      body: activityExportSchema,
      response: { 200: csvResponse, ...errors },
    },
    handler: async (request, reply) => sendCsv(reply, await activity.exportActivity(requireSignedIn(request.ctx), request.body)),
  });

  app.get('/api/activitylogs/actors', {
    config: activityLogs,
    schema: {
      tags,
      summary: 'Users who appear in the acting clinic’s log, for the user filter',
      querystring: activityActorsQuerySchema,
      response: { 200: activityActorsSchema, ...errors },
    },
    handler: async (request) => activity.listActors(requireSignedIn(request.ctx), request.query.area),
  });

  app.post('/api/logindetails/filtered', {
    config: loginDetails,
    schema: {
      tags,
      summary: 'Sign-ins, sign-outs, two-factor steps and password changes of the acting clinic',
      body: loginDetailsFilterSchema,
      response: { 200: loginDetailsPageSchema, ...errors },
    },
    handler: async (request) => activity.listLoginDetails(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/logindetails/export', {
    config: loginDetails,
    schema: {
      tags,
      summary: 'Login details as CSV (same filters, no paging)',
      body: loginDetailsExportSchema,
      response: { 200: csvResponse, ...errors },
    },
    handler: async (request, reply) =>
      sendCsv(reply, await activity.exportLoginDetails(requireSignedIn(request.ctx), request.body)),
  });
}
