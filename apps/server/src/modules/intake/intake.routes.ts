import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formLanguageSchema } from '@pathwell/contracts/forms';
import {
  appointmentDashboardQuerySchema,
  appointmentDashboardSchema,
  bulkIntakePreviewSchema,
  bulkIntakeProgressSchema,
  bulkIntakeQuerySchema,
  bulkIntakeStartedSchema,
  createdIntakeSchema,
  createIntakeSchema,
  contactChoiceSchema,
  intakeFormKeySchema,
  insuranceCardSavedSchema,
  insuranceCardSideSchema,
  intakeSaveResponseSchema,
  intakeStepSaves,
  onePagerQuerySchema,
  onePagerSchema,
  patientCheckInResponseSchema,
  selfCheckInParamsSchema,
  selfCheckInSchema,
  selfCheckInStateSchema,
  type IntakeStepSlug,
} from '@pathwell/contracts/intake';
import {
  draftSchema,
  linkFormResponseSchema,
  submitLinkResponseSchema,
  submitLinkSchema,
} from '@pathwell/contracts/patient-links';
import { idSchema, optionalMdyDaySchema } from '@pathwell/contracts/validation';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import { enterLinkClinic } from '../patient-contact/link-access.service';
import { bearerOf, linkRouteErrors, open, staffRoles, tokenParams } from '../patient-contact/link-requests.service';
import * as view from './intake-view.service';
import * as steps from './intake-steps.service';
import * as intakeForms from './intake-forms.service';
import * as checkIn from './intake-check-in.service';
import * as cards from './insurance-cards.service';
import * as plans from './intake-plans.service';
import * as patientIntakes from './patient-intakes.service';
import * as dashboard from './intake-dashboard.service';
import * as bulkSends from './intake-bulk-sends.service';
import { onePager } from './one-pager.service';
import * as selfCheckIn from './self-check-in.service';
import * as intakeRecord from './intake-details.service';
import { intakeRecordRoutes } from './intake-record.routes';
import { intakeViewWithRecordSchema, staffIntakeDetailSchema } from '@pathwell/contracts/intake-record';

const errors = linkRouteErrors;
const staff = { roles: staffRoles };

/**
 * Patient intake (decision 0032). The patient's calls take the intake link's token and the access token
 * of its identity check (`/api/patient-links/{token}/verify`); staff calls are signed in.
 */
export async function intakeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Intake'];

  // ---- patient (open) ----
  app.get('/api/intake/:token', {
    config: open(60),
    schema: {
      tags,
      summary: 'The intake: steps, what is saved, the options the clinic set',
      params: tokenParams,
      response: { 200: intakeViewWithRecordSchema, ...errors },
    },
    handler: async (request) =>
      view.intakeView(await enterLinkClinic(request.ctx, request.params.token), request.params.token, bearerOf(request)),
  });

  app.get('/api/intake/:token/agreement', {
    config: open(30),
    schema: {
      tags,
      summary: "The clinic's uploaded new-patient agreement (PDF)",
      params: tokenParams,
      querystring: z.object({ language: formLanguageSchema.default('en') }),
      response: { 200: z.any(), ...errors },
    },
    handler: async (request, reply) => {
      const pdf = await view.agreementPdf(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.query.language,
      );
      return reply.header('Content-Type', 'application/pdf').header('Cache-Control', 'no-store').send(pdf);
    },
  });

  for (const slug of Object.keys(intakeStepSaves) as IntakeStepSlug[]) {
    app.put(`/api/intake/:token/${slug}`, {
      config: open(240),
      schema: {
        tags,
        summary: `Save the ${slug} step (final: true finishes it)`,
        params: tokenParams,
        body: intakeStepSaves[slug],
        response: { 200: intakeSaveResponseSchema, ...errors },
      },
      handler: async (request) =>
        steps.saveStep(
          await enterLinkClinic(request.ctx, request.params.token),
          request.params.token,
          bearerOf(request),
          slug,
          request.body as { final: boolean; language: 'en' | 'es'; data: Record<string, unknown> },
        ),
    });
  }

  const formParams = tokenParams.extend({ key: intakeFormKeySchema });
  app.get('/api/intake/:token/forms/:key', {
    config: open(60),
    schema: {
      tags,
      summary: 'A form inside the intake, with its draft',
      params: formParams,
      response: { 200: linkFormResponseSchema, ...errors },
    },
    handler: async (request) =>
      intakeForms.intakeForm(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.params.key,
      ),
  });

  app.put('/api/intake/:token/forms/:key/draft', {
    config: open(240),
    schema: {
      tags,
      summary: "Save a form's answers so far",
      params: formParams,
      body: draftSchema,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await intakeForms.saveIntakeFormDraft(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.params.key,
        request.body,
      );
      return reply.status(204).send(null);
    },
  });

  app.post('/api/intake/:token/forms/:key/submit', {
    config: open(30),
    schema: {
      tags,
      summary: 'Submit a form of the intake; scored on the server, once per idempotency key',
      params: formParams,
      body: submitLinkSchema,
      response: { 200: submitLinkResponseSchema, 201: submitLinkResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const result = await intakeForms.submitIntakeForm(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.params.key,
        request.body,
      );
      return reply.status(result.replay ? 200 : 201).send(result.body);
    },
  });

  app.put('/api/intake/:token/contact', {
    config: open(30),
    schema: {
      tags,
      summary: 'The opt-in page: may the clinic send care messages by email and by text',
      params: tokenParams,
      body: z.object({ choice: contactChoiceSchema, language: formLanguageSchema }),
      response: { 200: intakeSaveResponseSchema, ...errors },
    },
    handler: async (request) =>
      steps.saveContactChoice(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        bearerOf(request),
        request.body.choice,
        request.body.language,
      ),
  });

  app.post('/api/intake/:token/checkin', {
    config: open(20),
    schema: {
      tags,
      summary: 'Check in for the visit from the link (self or home check-in, on the day of the visit)',
      params: tokenParams,
      response: { 200: patientCheckInResponseSchema, ...errors },
    },
    handler: async (request) =>
      checkIn.patientCheckIn(await enterLinkClinic(request.ctx, request.params.token), request.params.token, bearerOf(request)),
  });

  // ---- self check-in from a QR code (open; decision 0034) ----
  app.get('/api/selfcheckin/:patientId/:appointmentId', {
    config: open(30),
    schema: {
      tags,
      summary: 'Whether the patient can check in now from the QR page of this visit',
      params: selfCheckInParamsSchema,
      response: { 200: selfCheckInStateSchema, ...errors },
    },
    handler: async (request) =>
      selfCheckIn.selfCheckInState(
        await selfCheckIn.enterSelfCheckInClinic(request.ctx, request.params.appointmentId),
        request.params.patientId,
        request.params.appointmentId,
      ),
  });

  app.post('/api/selfcheckin/:patientId/:appointmentId', {
    config: open(10),
    schema: {
      tags,
      summary: 'Check in at the clinic from the QR page, with last name and date of birth',
      params: selfCheckInParamsSchema,
      body: selfCheckInSchema,
      response: { 200: patientCheckInResponseSchema, ...errors },
    },
    handler: async (request) =>
      selfCheckIn.selfCheckIn(
        await selfCheckIn.enterSelfCheckInClinic(request.ctx, request.params.appointmentId),
        request.params.patientId,
        request.params.appointmentId,
        request.body,
      ),
  });

  // ---- staff ----
  app.post('/api/patients/intake', {
    config: staff,
    schema: {
      tags,
      summary: "Create an appointment's intake link; optionally send it by email and/or text",
      body: createIntakeSchema,
      response: { 201: createdIntakeSchema, ...errors },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      return reply.status(201).send(await plans.createIntake(ctx, request.body));
    },
  });

  app.post('/api/patients/intakeenddate', {
    config: staff,
    schema: {
      tags,
      summary: 'Close an intake link now or at a later time (intakeenddate)',
      body: z.object({ linkId: idSchema, endsAt: z.iso.datetime({ offset: true }).max(40).nullish() }),
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await plans.endIntake(
        requireSignedIn(request.ctx),
        request.body.linkId,
        request.body.endsAt ? new Date(request.body.endsAt) : null,
      );
      return reply.status(204).send(null);
    },
  });

  app.get('/api/patients/:id/intake', {
    config: staff,
    schema: {
      tags,
      summary: "A patient's intakes, newest appointment first, with answers, forms and consents",
      params: z.object({ id: idSchema }),
      response: { 200: z.array(staffIntakeDetailSchema), ...errors },
    },
    handler: async (request) => intakeRecord.patientIntakeDetails(requireSignedIn(request.ctx), request.params.id),
  });
  await intakeRecordRoutes(fastify);

  app.get('/api/patientappointments/one-pager', {
    config: staff,
    schema: {
      tags,
      summary:
        "An appointment's one-pager for the doctor: visit, pain against the last visit, body map, scores, allergies, consents",
      querystring: onePagerQuerySchema,
      response: { 200: onePagerSchema, ...errors },
    },
    handler: async (request) => onePager(requireSignedIn(request.ctx), request.query.appointmentId),
  });

  app.get('/api/patients/:id/consents/:consentId/pdf', {
    config: staff,
    schema: {
      tags,
      summary: 'A signed consent as PDF',
      params: z.object({ id: idSchema, consentId: idSchema }),
      response: { 200: z.any(), ...errors },
    },
    handler: async (request, reply) => {
      const { pdf, fileName } = await patientIntakes.consentPdf(
        requireSignedIn(request.ctx),
        request.params.id,
        request.params.consentId,
      );
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition('inline', fileName))
        .header('Cache-Control', 'no-store')
        .send(pdf);
    },
  });

  app.post('/api/patients/appointmentdashboardinfo', {
    config: { menuPath: '/patients/appointmentdashboard' },
    schema: {
      tags,
      summary: "A day's appointments with each patient's intake steps",
      body: appointmentDashboardQuerySchema.extend({ date: optionalMdyDaySchema.optional() }).transform((value) => ({
        ...value,
        date: value.date || undefined,
      })),
      response: { 200: appointmentDashboardSchema, ...errors },
    },
    handler: async (request) => dashboard.appointmentDashboard(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/patients/bulkintakenotification/preview', {
    config: staff,
    schema: {
      tags,
      summary: 'Who a bulk intake notification would reach, and why not',
      body: bulkIntakeQuerySchema,
      response: { 200: bulkIntakePreviewSchema, ...errors },
    },
    handler: async (request) => bulkSends.previewBulkIntake(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/patients/bulkintakenotification', {
    config: staff,
    schema: {
      tags,
      summary: "Send intake links to a day's patients",
      body: bulkIntakeQuerySchema,
      response: { 201: bulkIntakeStartedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      return reply.status(201).send(await bulkSends.startBulkIntake(ctx, request.body));
    },
  });

  app.get('/api/patients/bulkintakenotification/:batchId', {
    config: staff,
    schema: {
      tags,
      summary: "A bulk notification's progress",
      params: z.object({ batchId: idSchema }),
      response: { 200: bulkIntakeProgressSchema, ...errors },
    },
    handler: async (request) => bulkSends.bulkIntakeProgress(requireSignedIn(request.ctx), request.params.batchId),
  });

  // ---- insurance card photos of the paperwork step ----
  const cardParams = tokenParams.extend({ side: insuranceCardSideSchema });
  await fastify.register(async (scope) => {
    // The image is the raw body. Only these routes read one: every content type goes to the card reader,
    // which enforces the size while reading, so a wrong type gets a field error rather than a bare 415.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', cards.readCardUpload);
    const cardApp = scope.withTypeProvider<ZodTypeProvider>();
    cardApp.put('/api/intake/:token/insurance-card/:side', {
      config: open(30),
      schema: {
        tags,
        summary: 'Add or replace the photo of one side of an insurance card (raw JPEG, PNG or WebP body, ≤ 2 MB)',
        params: cardParams,
        response: { 200: insuranceCardSavedSchema, ...errors },
      },
      handler: async (request) =>
        cards.saveCard(
          await enterLinkClinic(request.ctx, request.params.token),
          request.params.token,
          bearerOf(request),
          request.params.side,
          {
            declaredType: request.headers['content-type'],
            content: request.body instanceof cards.CardUpload ? request.body.content : undefined,
          },
        ),
    });
    cardApp.delete('/api/intake/:token/insurance-card/:side', {
      config: open(30),
      schema: {
        tags,
        summary: 'Remove the photo of one side of an insurance card',
        params: cardParams,
        response: { 204: z.null(), ...errors },
      },
      handler: async (request, reply) => {
        await cards.deleteCard(
          await enterLinkClinic(request.ctx, request.params.token),
          request.params.token,
          bearerOf(request),
          request.params.side,
        );
        return reply.status(204).send(null);
      },
    });
    cardApp.get('/api/intake/:token/insurance-card/:side', {
      config: open(60),
      schema: {
        tags,
        summary: 'The photo of one side of an insurance card, to the patient who sent it',
        params: cardParams,
        response: { 200: z.any(), ...errors },
      },
      handler: async (request, reply) => {
        const file = await cards.cardImage(
          await enterLinkClinic(request.ctx, request.params.token),
          request.params.token,
          bearerOf(request),
          request.params.side,
        );
        return reply.header('Content-Type', file.contentType).header('Cache-Control', 'no-store').send(file.content);
      },
    });
  });

  app.get('/api/patients/:id/insurance-cards/:fileId', {
    config: staff,
    schema: {
      tags,
      summary: "A photo of the patient's insurance card from an intake",
      params: z.object({ id: idSchema, fileId: idSchema }),
      response: { 200: z.any(), ...errors },
    },
    // The security plugin marks every /api answer no-store; this one also says it is for this user only.
    onSend: async (_request, reply, payload) => {
      reply.header('Cache-Control', 'private, no-store');
      return payload;
    },
    handler: async (request, reply) => {
      const file = await cards.staffCardImage(requireSignedIn(request.ctx), request.params.id, request.params.fileId);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', contentDisposition('inline', `insurance-card-${file.side}`))
        .send(file.content);
    },
  });
}
