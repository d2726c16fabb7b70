import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { requireSignedIn } from '../../context';
import { commitBeforeStreaming } from '../../plugins/auth';

/** A comment line keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/**
 * A stream ends after this long and the browser reconnects: each reconnect is a new signed-in request,
 * so a session that was signed out or timed out stops hearing events within this time.
 */
const STREAM_MAX_MS = 5 * 60_000;

export async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const openStreams = new Set<() => void>();
  // Open streams would keep the server from closing; ending them lets browsers reconnect elsewhere.
  fastify.addHook('onClose', async () => {
    for (const end of openStreams) end();
  });

  app.get('/api/events', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'Server-sent events for the signed-in user: "notification" and "message" say what to read again',
      response: {
        200: z.string().describe('text/event-stream'),
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      await commitBeforeStreaming(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: 3000\nevent: ready\ndata: {}\n\n`);
      const unsubscribe = ctx.events.subscribe(ctx.actor.userId, ctx.instanceIds, (event) => {
        raw.write(`event: ${event.kind}\ndata: ${JSON.stringify({ kind: event.kind })}\n\n`);
      });
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const lifetime = setTimeout(() => raw.end(), STREAM_MAX_MS);
      const end = () => raw.end();
      openStreams.add(end);
      raw.on('close', () => {
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        unsubscribe();
        openStreams.delete(end);
      });
    },
  });
}
