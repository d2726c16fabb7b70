import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { idSchema } from '@pathwell/contracts/validation';
import { enterClinicOf } from '../../context';
import { AppError } from '../../lib/app-error';
import { readSettings } from '../settings/settings.service';
import { handleInboundText } from '../outreach/campaign-responses';
import { recordProviderStatus, smsAccountFor } from './outbox.service';
import { isTwilioRequest } from './providers';

const params = z.object({ instanceId: idSchema });
/** Twilio posts short fields; a text's Body is at most 1,600 characters. */
// Twilio posts a few dozen fields. A body of thousands is refused before its schema reads it: checking
// every field would cost the event loop a tenth of a second and build an error for each.
const TWILIO_MAX_FIELDS = 200;
const twilioForm = z.record(z.string().max(64, 'tooLong'), z.string().max(2000, 'tooLong'));
const refuseLongForms = async (request: FastifyRequest) => {
  const body = request.body;
  if (body && typeof body === 'object' && Object.keys(body).length > TWILIO_MAX_FIELDS) {
    throw new AppError('VALIDATION', 'requestInvalid', { fields: { _: 'invalid' } });
  }
};
const twiml = (message: string | null) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${escapeXml(message)}</Message>` : ''}</Response>`;
const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);

/**
 * Twilio's callbacks (issue #11 §2): delivery status reports and inbound texts. Open routes: Twilio
 * signs each request with the clinic's auth token (X-Twilio-Signature over the public URL and the
 * posted fields), and an unsigned or wrongly signed request is refused before anything is read or
 * written. The clinic is in the path, as configured in Twilio for that clinic's number.
 */
export async function smsWebhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  async function verifiedClinic(request: FastifyRequest<{ Params: { instanceId: string }; Body: Record<string, string> }>) {
    const ctx = await enterClinicOf(request.ctx, request.params.instanceId.toLowerCase());
    const settings = await readSettings(ctx.db, ctx.instanceId!);
    const account = smsAccountFor(ctx.config, ctx.instanceId, settings);
    const url = `${ctx.config.publicUrl}${request.url}`;
    const signature = request.headers['x-twilio-signature'];
    if (
      !account ||
      !isTwilioRequest(account.authToken, typeof signature === 'string' ? signature : undefined, url, request.body)
    ) {
      throw new AppError('FORBIDDEN', 'requestSignatureInvalid');
    }
    return { ctx, settings };
  }

  app.post('/api/sms/twilio/:instanceId/status', {
    config: { public: true },
    preValidation: refuseLongForms,
    schema: {
      tags: ['Messaging'],
      summary: "Twilio status callback: the provider's later word on a text (sent, delivered, undelivered, failed)",
      params,
      body: twilioForm,
      response: { 204: z.null(), 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { ctx } = await verifiedClinic(request);
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

  app.post('/api/sms/twilio/:instanceId/inbound', {
    config: { public: true },
    preValidation: refuseLongForms,
    schema: {
      tags: ['Messaging'],
      summary:
        'Twilio inbound text: STOP / START / HELP (and PARAR, ALTO, AYUDA) change or explain the opt-out; kept and matched to a campaign',
      params,
      body: twilioForm,
      response: { 200: z.string(), 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { ctx } = await verifiedClinic(request);
      const from = request.body.From;
      if (!from) throw new AppError('VALIDATION', 'requestInvalid');
      const { answer } = await handleInboundText(
        { db: ctx.db, config: ctx.config, instanceId: ctx.instanceId!, ip: ctx.ip },
        { from, body: request.body.Body ?? '', providerMessageId: request.body.MessageSid ?? null },
      );
      return reply.type('text/xml').send(twiml(answer));
    },
  });
}
