import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idSchema } from '@pathwell/contracts/validation';
import { enterClinicOf } from '../../context';
import { AppError } from '../../lib/app-error';
import { readSettings } from '../settings/settings.service';
import { smsAccountFor } from './outbox.service';
import { isTwilioRequest } from './providers';

/*
 * What every Twilio callback route shares (the status callback here, inbound texts in patient-contact):
 * the form body, its size limits, and the signature check that finds the clinic.
 */

export const twilioParams = z.object({ instanceId: idSchema });
/** Twilio posts short fields; a text's Body is at most 1,600 characters. */
// Twilio posts a few dozen fields. A body of thousands is refused before its schema reads it: checking
// every field would cost the event loop a tenth of a second and build an error for each.
const TWILIO_MAX_FIELDS = 200;
export const twilioForm = z.record(z.string().max(64, 'tooLong'), z.string().max(2000, 'tooLong'));
export const refuseLongForms = async (request: FastifyRequest) => {
  const body = request.body;
  if (body && typeof body === 'object' && Object.keys(body).length > TWILIO_MAX_FIELDS) {
    throw new AppError('VALIDATION', 'requestInvalid', { fields: { _: 'invalid' } });
  }
};

/** Twilio posts its fields form-encoded; routes registered in the same plugin read them as a record. */
export function acceptTwilioForms(fastify: FastifyInstance) {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}

/**
 * The clinic named in the path, once the request is proven to come from Twilio: signed with that
 * clinic's auth token over the public URL and the posted fields. Anything else is refused before a
 * row is read or written.
 */
export async function verifiedTwilioClinic(
  request: FastifyRequest<{ Params: { instanceId: string }; Body: Record<string, string> }>,
) {
  const ctx = await enterClinicOf(request.ctx, request.params.instanceId.toLowerCase());
  const settings = await readSettings(ctx.db, ctx.instanceId!);
  const account = smsAccountFor(ctx.config, ctx.instanceId, settings);
  const url = `${ctx.config.publicUrl}${request.url}`;
  const signature = request.headers['x-twilio-signature'];
  if (!account || !isTwilioRequest(account.authToken, typeof signature === 'string' ? signature : undefined, url, request.body)) {
    throw new AppError('FORBIDDEN', 'requestSignatureInvalid');
  }
  return { ctx, settings };
}
