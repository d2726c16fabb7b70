import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { outboxMessageSchema } from '@pathwell/contracts/session';
import { notFound } from '../../lib/app-error';
import { withSystemContext } from '../../context';
import { listOutbox } from './outbox.service';

export async function outboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/outbox', {
    config: { roles: ['SystemManager'] },
    schema: {
      tags: ['Outbox'],
      summary: 'Outbound messages (demo mode only), newest first',
      querystring: z.object({
        pageNumber: z.coerce.number().int().min(0).default(PAGE_NUMBER_DEFAULT),
        pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE_DEFAULT),
      }),
      response: {
        200: z.object({ totalRecords: z.number().int(), data: z.array(outboxMessageSchema) }),
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => {
      // Outside demo mode messages hold live links and codes: they are never readable in the app.
      if (!request.ctx.config.demoMode) throw notFound('pageNotFound');
      const { totalRecords, rows } = await withSystemContext(request.ctx, 'system-manager', (ctx) =>
        listOutbox(ctx.db, ctx.config, request.query),
      );
      return {
        totalRecords,
        data: rows.map((row) => ({
          id: row.id,
          channel: row.channel,
          recipient: row.recipient,
          subject: row.subject,
          body: row.body,
          template: row.template,
          status: row.status,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  });
}
