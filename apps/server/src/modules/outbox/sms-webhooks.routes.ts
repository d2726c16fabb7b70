import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { AppError } from '../../lib/app-error';
import { recordProviderStatus } from './message-delivery.service';
import { acceptTwilioForms, refuseLongForms, twilioForm, twilioParams, verifiedTwilioClinic } from './twilio-webhooks.service';

/**
 * Twilio's delivery status reports (issue #11 §2). An open route: Twilio signs each request with the
 * clinic's auth token (X-Twilio-Signature over the public URL and the posted fields), and an unsigned or
 * wrongly signed request is refused before anything is read or written. The clinic is in the path, as
 * configured in Twilio for that clinic's number. Inbound texts have their own route in patient-contact.
 */
export async function smsWebhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  acceptTwilioForms(fastify);

  app.post('/api/sms/twilio/:instanceId/status', {
    config: { public: true },
    preValidation: refuseLongForms,
    schema: {
      tags: ['Messaging'],
      summary: "Twilio status callback: the provider's later word on a text (sent, delivered, undelivered, failed)",
      params: twilioParams,
      body: twilioForm,
      response: { 204: z.null(), 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { ctx } = await verifiedTwilioClinic(request);
      const sid = request.body.MessageSid;
      const status = request.body.MessageStatus;
      if (!sid || !status) throw new AppError('VALIDATION', 'requestInvalid');
      await recordProviderStatus(ctx.db, ctx.instanceId!, {
        providerMessageId: sid,
        status,
        errorCode: request.body.ErrorCode ?? null,
      });
      return reply.status(204).send(null);
    },
  });
}
