import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { renderableFormSchema } from '@pathwell/contracts/forms';
import {
  appointmentIdParamsSchema,
  assignedProQuerySchema,
  assignedProSchema,
  formResponseIdParamsSchema,
  instrumentAvailabilitySchema,
  instrumentListSchema,
  instrumentParamsSchema,
  instrumentSummarySchema,
  patientFormResponsesSchema,
  unfilledFormsSchema,
  updateAssignedProSchema,
} from '@pathwell/contracts/form-responses';
import { formResponseDetailSchema } from '@pathwell/contracts/patient-links';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { licensedWordingSchema } from '@pathwell/instruments';
import { requireSignedIn } from '../../context';
import * as responses from './form-responses.service';
import { instrumentAvailability } from './wording-availability.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const patientIdParamsSchema = z.object({ id: idSchema });

const assigners = { roles: ['SystemManager', 'Admin', 'Staff', 'Doctor'] as readonly Role[] };
/** Importing licensed wording binds the clinic to a licence: the System Manager's call (decision 0020). */
const wordingManagers = { roles: ['SystemManager'] as readonly Role[] };

/**
 * Questionnaire results for staff (/formresponse/result/{id}, /customformresponse/view/{id}, the patient
 * dashboard's panel), assigned PROs of an appointment, and the instrument catalogue with licensed
 * wording. Every signed-in role may read results; a Doctor only for their own patients (service).
 */
export async function formResponseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Form responses'];

  app.get('/api/formresponses/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One response as answered: the form of its version, answers, scores, band and the change from the previous one',
      params: formResponseIdParamsSchema,
      response: { 200: formResponseDetailSchema, ...errors },
    },
    handler: async (request) => responses.responseDetail(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/patients/:id/formresponses', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "A patient's questionnaire responses, newest first, and each form's score series",
      params: patientIdParamsSchema,
      response: { 200: patientFormResponsesSchema, ...errors },
    },
    handler: async (request) => responses.patientResponses(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/patientappointments/assigned-pro', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "The outcome forms assigned to an appointment (the clinic's applicable forms when nobody chose)",
      querystring: assignedProQuerySchema,
      response: { 200: assignedProSchema, ...errors },
    },
    handler: async (request) => responses.assignedPro(requireSignedIn(request.ctx), request.query.appointmentId),
  });

  app.put('/api/patientappointments/assigned-pro', {
    config: assigners,
    schema: {
      tags,
      summary: 'Choose the outcome forms of an appointment',
      body: updateAssignedProSchema,
      response: { 200: assignedProSchema, ...errors },
    },
    handler: async (request) => responses.updateAssignedPro(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/patientappointments/getunfilledforms/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'The assigned outcome forms not yet answered for an appointment',
      params: appointmentIdParamsSchema,
      response: { 200: unfilledFormsSchema, ...errors },
    },
    handler: async (request) => responses.unfilledForms(requireSignedIn(request.ctx), request.params.id),
  });

  const instrumentTags = ['Instruments'];

  app.get('/api/instruments', {
    config: wordingManagers,
    schema: {
      tags: instrumentTags,
      summary: 'The 15 outcome instruments with their wording status for this clinic',
      response: { 200: instrumentListSchema, ...errors },
    },
    handler: async (request) => ({ data: await responses.listInstruments(requireSignedIn(request.ctx)) }),
  });

  app.get('/api/instruments/availability', {
    config: { anyRole: true },
    schema: {
      tags: instrumentTags,
      summary: 'Which outcome forms this clinic can give to patients (licensed wording loaded or shipped)',
      response: { 200: instrumentAvailabilitySchema, ...errors },
    },
    handler: async (request) => ({ data: await instrumentAvailability(requireSignedIn(request.ctx)) }),
  });

  app.get('/api/instruments/:formCode', {
    config: { anyRole: true },
    schema: {
      tags: instrumentTags,
      summary: 'An instrument as this clinic shows it to patients (staff preview)',
      params: instrumentParamsSchema,
      response: { 200: renderableFormSchema, ...errors },
    },
    handler: async (request) => responses.previewInstrument(requireSignedIn(request.ctx), request.params.formCode),
  });

  app.put('/api/instruments/:formCode/wording', {
    config: wordingManagers,
    schema: {
      tags: instrumentTags,
      summary: 'Import the licensed wording of ODI, NDI, PROMIS Global-10 or SOAPP-R for this clinic',
      params: instrumentParamsSchema,
      body: licensedWordingSchema,
      response: { 200: instrumentSummarySchema, ...errors },
    },
    handler: async (request) => responses.importWording(requireSignedIn(request.ctx), request.params.formCode, request.body),
  });

  app.delete('/api/instruments/:formCode/wording', {
    config: wordingManagers,
    schema: {
      tags: instrumentTags,
      summary: "Remove this clinic's licensed wording (the neutral labels return)",
      params: instrumentParamsSchema,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await responses.removeWording(requireSignedIn(request.ctx), request.params.formCode);
      return reply.status(204).send(null);
    },
  });
}
