import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  closeAccountConfirmationSchema,
  closeAccountParamsSchema,
  closeAccountRequestedSchema,
  closeAccountStateSchema,
} from '@pathwell/contracts/close-account';
import { formLanguageSchema } from '@pathwell/contracts/forms';
import { enterLinkClinic } from '../patient-contact/link-access.service';
import { bearerOf, linkRouteErrors, open, tokenParams } from '../patient-contact/link-requests.service';
import * as closeAccount from './close-account.service';

/** A patient closes their own account (issue #12, decision 0036); staff close one with POST /api/patients/closeaccount. */
export async function closeAccountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Intake'];

  app.post('/api/intake/:token/close-account', {
    config: open(5),
    schema: {
      tags,
      summary: 'The patient asks to close their account: a confirmation link goes to the email on file',
      params: tokenParams,
      body: z.object({ language: formLanguageSchema }),
      response: { 200: closeAccountRequestedSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      closeAccount.requestAccountClosure(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.body.language,
      ),
  });

  app.get('/api/patients/closeaccount/:patientId/:token', {
    config: open(20),
    schema: {
      tags,
      summary: 'The emailed close-account page: can it still be confirmed',
      params: closeAccountParamsSchema,
      response: { 200: closeAccountStateSchema, ...linkRouteErrors },
    },
    handler: async (request) => closeAccount.closeAccountState(request.ctx, request.params.patientId, request.params.token),
  });

  app.post('/api/patients/closeaccountconfirmation', {
    config: open(10),
    schema: {
      tags,
      summary: 'The patient confirms closing their account from the emailed link',
      body: closeAccountConfirmationSchema,
      response: { 200: closeAccountStateSchema, ...linkRouteErrors },
    },
    handler: async (request) => closeAccount.confirmAccountClosure(request.ctx, request.body.patientId, request.body.token),
  });
}
