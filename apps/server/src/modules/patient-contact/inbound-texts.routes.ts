import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inboundSimulationInputSchema, inboundSimulationResultSchema } from '@pathwell/contracts/campaigns';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { requireSignedIn } from '../../context';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { maskRecipient } from '../outbox/outbox.service';
import { acceptTwilioForms, refuseLongForms, twilioForm, twilioParams, verifiedTwilioClinic } from '../outbox/twilio-webhooks.service';
import { handleInboundText } from './inbound-texts.service';

const twiml = (message: string | null) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${escapeXml(message)}</Message>` : ''}</Response>`;
const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);

/**
 * Texts patients send to the clinic's number (issue #11 §2, decision 0069): Twilio's signed inbound
 * webhook, and in demo mode the same handling for a text typed on the outbox page.
 */
export async function inboundTextRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  acceptTwilioForms(fastify);

  app.post('/api/sms/twilio/:instanceId/inbound', {
    config: { public: true },
    preValidation: refuseLongForms,
    schema: {
      tags: ['Messaging'],
      summary:
        'Twilio inbound text: STOP / START / HELP (and PARAR, ALTO, AYUDA) change or explain the opt-out; kept and matched to a campaign',
      params: twilioParams,
      body: twilioForm,
      response: { 200: z.string(), 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { ctx } = await verifiedTwilioClinic(request);
      const from = request.body.From;
      if (!from) throw new AppError('VALIDATION', 'requestInvalid');
      const { answer } = await handleInboundText(
        { db: ctx.db, config: ctx.config, instanceId: ctx.instanceId!, ip: ctx.ip },
        { from, body: request.body.Body ?? '', providerMessageId: request.body.MessageSid ?? null },
      );
      return reply.type('text/xml').send(twiml(answer));
    },
  });

  app.post('/api/outbox/inbound-simulation', {
    config: { roles: ['SystemManager', 'Admin'] },
    schema: {
      tags: ['Outbox'],
      summary:
        "A text as if a patient had sent it to the clinic's number (demo mode only): exactly what Twilio's inbound webhook runs",
      body: inboundSimulationInputSchema,
      response: {
        200: inboundSimulationResultSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => {
      // Like the outbox page: a demo tool, absent outside demo mode.
      if (!request.ctx.config.demoMode) throw notFound('pageNotFound');
      const ctx = requireSignedIn(request.ctx);
      const result = await handleInboundText(
        { db: ctx.db, config: ctx.config, instanceId: ctx.instanceId, ip: ctx.ip },
        { from: request.body.from, body: request.body.body, providerMessageId: null },
      );
      await recordActivity(
        ctx.db,
        staffActivity(ctx, 'Patient Profile', 'Created', {
          type: 'inbound text',
          id: result.patientId,
          description: `Simulated an inbound text from ${maskRecipient('sms', request.body.from)}`,
        }),
      );
      return { answer: result.answer, patientId: result.patientId, campaignId: result.campaignId };
    },
  });
}
