import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consentLinkViewSchema,
  createConsentLinkSchema,
  createdConsentLinkSchema,
  patientConsentsSchema,
  signConsentSchema,
  signedConsentSchema,
} from '@pathwell/contracts/consent-links';
import { formLanguageSchema } from '@pathwell/contracts/forms';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { enterLinkClinic } from '../patient-contact/link-access.service';
import { bearerOf, linkRouteErrors, open, staffRoles, tokenParams } from '../patient-contact/link-requests.service';
import * as consentLinks from './consent-links.service';

/**
 * Consents signed on their own (decision 0036): staff send the injection consent or an expired consent
 * to sign again; the patient opens /patients/digitalconsentform/{token} or /patients/resignconsent/{token},
 * passes the identity check of `/api/patient-links/{token}/verify`, reads and signs.
 */
export async function consentLinkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Intake'];
  const staff = { roles: staffRoles };

  app.post('/api/patients/consentlinks', {
    config: staff,
    schema: {
      tags,
      summary: 'Send consents to sign on their own: the injection consent, or an expired one to sign again',
      body: createConsentLinkSchema,
      response: { 201: createdConsentLinkSchema, ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      return reply.status(201).send(await consentLinks.createConsentLink(ctx, request.body));
    },
  });

  app.get('/api/patients/:id/consents', {
    config: staff,
    schema: {
      tags,
      summary: "The patient's latest consent of each kind, the consent links waiting, and what the clinic may send",
      params: z.object({ id: idSchema }),
      response: { 200: patientConsentsSchema, ...linkRouteErrors },
    },
    handler: async (request) => consentLinks.patientConsentsOf(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/consent-links/:token', {
    config: open(60),
    schema: {
      tags,
      summary: 'The consents of a consent link, with their text (Authorization: Bearer <accessToken>)',
      params: tokenParams,
      response: { 200: consentLinkViewSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      consentLinks.consentLinkView(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
      ),
  });

  app.post('/api/consent-links/:token/sign', {
    config: open(30),
    schema: {
      tags,
      summary: 'Sign one consent of the link with a drawn signature',
      params: tokenParams,
      body: signConsentSchema,
      response: { 200: signedConsentSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      consentLinks.signConsent(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.body,
      ),
  });

  app.get('/api/consent-links/:token/agreement', {
    config: open(30),
    schema: {
      tags,
      summary: "The clinic's new-patient agreement PDF, for a link that asks to sign it again",
      params: tokenParams,
      querystring: z.object({ language: formLanguageSchema.default('en') }),
      response: { 200: z.any(), ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const pdf = await consentLinks.consentAgreementPdf(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.query.language,
      );
      return reply.header('Content-Type', 'application/pdf').header('Cache-Control', 'private, no-store').send(pdf);
    },
  });
}
