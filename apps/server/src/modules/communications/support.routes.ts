import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { SUPPORT_SCREENSHOT_MAX_CHARS, supportRequestSchema } from '@pathwell/contracts/messaging';
import { requireSignedIn } from '../../context';
import { sendSupportRequest } from './support.service';

/** Room for the largest screenshot's data URL plus subject, message and JSON escapes (decision 0037). */
const SUPPORT_BODY_LIMIT = SUPPORT_SCREENSHOT_MAX_CHARS + 256 * 1024;

/**
 * Contact support (/contactsupport): the request goes by email to SUPPORT_EMAIL, with its optional
 * screenshot attached; without one it stays in the outbox ('stored'), where the System Manager reads it.
 */
export async function supportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/support/contact', {
    config: { menuPath: '/contactsupport' },
    bodyLimit: SUPPORT_BODY_LIMIT,
    schema: {
      tags: ['Messaging'],
      summary: 'Sends a support request from the signed-in user, with an optional screenshot (data URL)',
      body: supportRequestSchema,
      response: {
        201: z.object({ id: z.string(), status: z.string() }),
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        413: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const queued = await sendSupportRequest(requireSignedIn(request.ctx), request.body, request.headers.referer);
      return reply.status(201).send(queued);
    },
  });
}
