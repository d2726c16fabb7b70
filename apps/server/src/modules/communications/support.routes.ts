import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { supportRequestSchema } from '@pathwell/contracts/messaging';
import { requireSignedIn } from '../../context';
import { queueMessage } from '../outbox/outbox.service';

/**
 * Contact support (/contactsupport): the request goes by email to SUPPORT_EMAIL; without one it stays
 * in the outbox ('stored'), where the System Manager reads it.
 */
export async function supportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/support/contact', {
    config: { menuPath: '/contactsupport' },
    schema: {
      tags: ['Messaging'],
      summary: 'Sends a support request from the signed-in user',
      body: supportRequestSchema,
      response: {
        201: z.object({ id: z.string(), status: z.string() }),
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      const { subject, message } = request.body;
      const body = [
        `From: ${ctx.actor.email} (${ctx.actor.role})`,
        `Clinic: ${ctx.instanceId}`,
        `Page: ${request.headers.referer ?? '—'}`,
        '',
        message,
      ].join('\n');
      const queued = await queueMessage(ctx, ctx.db, {
        instanceId: ctx.instanceId,
        channel: 'email',
        to: ctx.config.supportEmail ?? 'support (SUPPORT_EMAIL not set)',
        storeOnly: !ctx.config.supportEmail,
        subject: `[Pathwell support] ${subject}`,
        body,
        template: 'support-request',
      });
      return reply.status(201).send(queued);
    },
  });
}
