import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdPatientLinkSchema,
  createPatientLinkSchema,
  draftSchema,
  linkFormResponseSchema,
  linkStatusResponseSchema,
  patientLinkSchema,
  submitLinkResponseSchema,
  submitLinkSchema,
  verifyLinkResponseSchema,
  verifyLinkSchema,
  emailCodeSentSchema,
  verifyEmailCodeSchema,
  accessRequestSchema,
  accessRequestSentSchema,
  staffAccessRequestSchema,
} from '@pathwell/contracts/patient-links';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { bearerOf, linkRouteErrors, open, staffRoles, tokenParams } from '../patient-contact/link-requests.service';
import { enterLinkClinic } from '../patient-contact/link-access.service';
import * as signIn from '../patient-contact/link-sign-in.service';
import * as formLink from './form-link.service';
import * as links from './patient-links.service';
import * as accessRequestsService from './access-requests.service';

const staff = { roles: staffRoles };

/** Patient links (decision 0016): staff create, list and revoke; the patient opens one with its token. */
export async function patientLinkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Patient links'];

  app.post('/api/patient-links', {
    config: staff,
    schema: {
      tags,
      summary: 'Create a questionnaire or custom form link for a patient; optionally email it',
      body: createPatientLinkSchema,
      response: { 201: createdPatientLinkSchema, ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      return reply.status(201).send(await links.createLink(ctx, request.log, request.body));
    },
  });

  app.get('/api/patient-links', {
    config: staff,
    schema: {
      tags,
      summary: "A patient's links, newest first",
      querystring: z.object({ patientId: idSchema }),
      response: { 200: z.array(patientLinkSchema), ...linkRouteErrors },
    },
    handler: async (request) => links.listLinks(requireSignedIn(request.ctx), request.query.patientId),
  });

  app.delete('/api/patient-links/:id', {
    config: staff,
    schema: {
      tags,
      summary: 'Revoke a link',
      params: z.object({ id: idSchema }),
      response: { 204: z.null(), ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      await links.revokeLink(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/patient-links/:token/status', {
    config: open(60),
    schema: {
      tags,
      summary: 'What a link is for and whether it can be used (nothing personal)',
      params: tokenParams,
      response: { 200: linkStatusResponseSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      formLink.linkStatus(await enterLinkClinic(request.ctx, request.params.token), request.params.token),
  });

  app.post('/api/patient-links/:token/verify', {
    config: open(20),
    schema: {
      tags,
      summary: 'Confirm last name and date of birth; answers an access token for the calls below',
      params: tokenParams,
      body: verifyLinkSchema,
      response: { 200: verifyLinkResponseSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      signIn.verifyLink(await enterLinkClinic(request.ctx, request.params.token), request.params.token, request.body),
  });

  app.post('/api/patient-links/:token/emailcode', {
    config: open(5),
    schema: {
      tags,
      summary: 'Email a 6-digit code to the address on file, instead of last name and date of birth',
      params: tokenParams,
      response: { 200: emailCodeSentSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      signIn.sendEmailCode(await enterLinkClinic(request.ctx, request.params.token), request.params.token),
  });

  app.post('/api/patient-links/:token/verifycode', {
    config: open(20),
    schema: {
      tags,
      summary: 'Confirm the emailed code; answers an access token as the identity check does',
      params: tokenParams,
      body: verifyEmailCodeSchema,
      response: { 200: verifyLinkResponseSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      signIn.verifyEmailCode(await enterLinkClinic(request.ctx, request.params.token), request.params.token, request.body.code),
  });

  app.post('/api/patient-links/:token/access-request', {
    config: open(5),
    schema: {
      tags,
      summary: 'Ask the clinic for access when the identity check does not match (reaches staff as a notification)',
      params: tokenParams,
      body: accessRequestSchema,
      response: { 200: accessRequestSentSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      accessRequestsService.requestAccess(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        request.body,
      ),
  });

  app.get('/api/patients/:id/access-requests', {
    config: staff,
    schema: {
      tags,
      summary: "Requests for access to this patient's links, newest first",
      params: z.object({ id: idSchema }),
      response: { 200: z.array(staffAccessRequestSchema), ...linkRouteErrors },
    },
    handler: async (request) => accessRequestsService.patientAccessRequests(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/patients/:id/access-requests/:requestId/handled', {
    config: staff,
    schema: {
      tags,
      summary: 'Mark an access request handled',
      params: z.object({ id: idSchema, requestId: idSchema }),
      response: { 204: z.null(), ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      await accessRequestsService.markAccessRequestHandled(
        requireSignedIn(request.ctx),
        request.params.id,
        request.params.requestId,
      );
      return reply.status(204).send(null);
    },
  });

  app.get('/api/patient-links/:token/form', {
    config: open(60),
    schema: {
      tags,
      summary: 'The form to fill in and the saved draft (Authorization: Bearer <accessToken>)',
      params: tokenParams,
      response: { 200: linkFormResponseSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      formLink.linkForm(await enterLinkClinic(request.ctx, request.params.token), request.params.token, bearerOf(request)),
  });

  app.put('/api/patient-links/:token/draft', {
    config: open(240),
    schema: {
      tags,
      summary: 'Save the answers so far',
      params: tokenParams,
      body: draftSchema,
      response: { 204: z.null(), ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      await formLink.saveDraft(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.body,
      );
      return reply.status(204).send(null);
    },
  });

  app.post('/api/patient-links/:token/submit', {
    config: open(30),
    schema: {
      tags,
      summary: 'Submit the answers; the server scores them. The same idempotency key again answers the first result',
      params: tokenParams,
      body: submitLinkSchema,
      response: { 200: submitLinkResponseSchema, 201: submitLinkResponseSchema, ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const result = await formLink.submitLink(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.body,
      );
      return reply.status(result.replay ? 200 : 201).send(result.body);
    },
  });
}
