import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  communicationCountsSchema,
  communicationFilterSchema,
  communicationMessageSchema,
  communicationPageSchema,
} from '@pathwell/contracts/messaging';
import { idSchema } from '@pathwell/contracts/validation';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import {
  communicationAttachment,
  communicationCounts,
  exportCommunications,
  listCommunications,
  resendCommunication,
} from './communications.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const access = { menuPath: '/communicationdashboard' } as const;

/** Communication dashboard (issue #11 §3): System Manager and Admin, the acting clinic's messages. */
export async function communicationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/communications/filtered', {
    config: access,
    schema: {
      tags: ['Messaging'],
      summary: 'Outbound messages of the clinic, newest first, with masked recipients',
      body: communicationFilterSchema,
      response: { 200: communicationPageSchema, ...errors },
    },
    handler: async (request) => listCommunications(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/communications/counts', {
    config: access,
    schema: {
      tags: ['Messaging'],
      summary: 'Messages per clinic day and status over the last 14 days',
      response: { 200: communicationCountsSchema, ...errors },
    },
    handler: async (request) => communicationCounts(requireSignedIn(request.ctx)),
  });

  app.post('/api/communications/exporttocsv', {
    config: access,
    schema: {
      tags: ['Messaging'],
      summary: 'The filtered messages as CSV (UTF-8 with byte-order mark)',
      body: communicationFilterSchema,
      response: { 200: z.string().describe('CSV file, UTF-8 with byte-order mark'), ...errors },
    },
    handler: async (request, reply) => {
      const file = await exportCommunications(requireSignedIn(request.ctx), request.body);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', contentDisposition('attachment', 'communications.csv'))
        .header('Cache-Control', 'no-store')
        .send(file as unknown as string);
    },
  });

  app.post('/api/communications/:id/resend', {
    config: access,
    schema: {
      tags: ['Messaging'],
      summary: 'Sends a failed, undelivered or stored message again',
      params: z.object({ id: idSchema }),
      response: { 200: communicationMessageSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request) => resendCommunication(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/communications/:id/attachments/:attachmentId', {
    config: access,
    schema: {
      tags: ['Messaging'],
      summary: "A file sent with one of the clinic's messages (a support request's screenshot)",
      params: z.object({ id: idSchema, attachmentId: idSchema }),
      response: { 200: z.any().describe('The file (PNG, JPEG or WebP)'), ...errors },
    },
    // The security plugin marks every /api answer no-store; this one also says it is for this user only.
    onSend: async (_request, reply, payload) => {
      reply.header('Cache-Control', 'private, no-store');
      return payload;
    },
    handler: async (request, reply) => {
      const file = await communicationAttachment(requireSignedIn(request.ctx), request.params.id, request.params.attachmentId);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', contentDisposition('inline', file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .send(file.content);
    },
  });
}
