import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema } from '@pathwell/contracts/session';
import { withSystemContext } from '../../context';
import { migrationLevel, type DatabaseKind } from '../../db/client';

export async function healthRoutes(fastify: FastifyInstance, options: { databaseKind: DatabaseKind }) {
  fastify.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { public: true },
    schema: { tags: ['Health'], summary: 'Database kind and migration level', response: { 200: healthSchema } },
    handler: async (request) => ({
      status: 'ok' as const,
      database: options.databaseKind,
      migrations: await withSystemContext(request.ctx, 'health', (ctx) => migrationLevel(ctx.db)),
    }),
  });
}
