import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { healthSchema } from '@pathwell/contracts/session';
import { withSystemContext } from '../../context';
import { migrationLevel, type DatabaseKind } from '../../db/client';
import { AppError } from '../../lib/app-error';

/**
 * How long health waits for a connection and one read. A pool whose every connection is held (or a
 * database that stopped answering) must show as unhealthy at once, not as a health check that hangs.
 */
const HEALTH_DEADLINE_MS = 1000;

export async function healthRoutes(fastify: FastifyInstance, options: { databaseKind: DatabaseKind }) {
  fastify.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    // No request transaction: waiting for the pool is exactly what health must not do.
    config: { public: true, ownTransaction: true },
    schema: {
      tags: ['Health'],
      summary: 'Database kind and migration level; 503 when the database does not answer within a second',
      response: { 200: healthSchema, 503: errorBodySchema },
    },
    handler: async (request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AppError('UNAVAILABLE', 'serviceUnavailable')), HEALTH_DEADLINE_MS);
      });
      // When the deadline wins, the read still finishes (or fails) on its own and hands its connection back.
      const read = withSystemContext(request.ctx, 'health', (ctx) => migrationLevel(ctx.db));
      read.catch(() => undefined);
      try {
        const migrations = await Promise.race([read, deadline]);
        return { status: 'ok' as const, database: options.databaseKind, migrations };
      } catch (error) {
        reply.header('Retry-After', '5');
        if (error instanceof AppError) throw error;
        request.log.warn({ err: error }, 'health check failed');
        throw new AppError('UNAVAILABLE', 'serviceUnavailable');
      } finally {
        clearTimeout(timer);
      }
    },
  });
}
