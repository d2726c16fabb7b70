import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  clinicDashboardQuerySchema,
  clinicDashboardSchema,
  patientDashboardSchema,
  patientIdParamsSchema,
  patientNoteInputSchema,
  patientNoteListSchema,
  patientNoteParamsSchema,
  patientNoteSchema,
} from '@pathwell/contracts/patient-dashboard';
import { requireSignedIn } from '../../context';
import * as dashboards from './patient-dashboard.service';
import * as clinicDashboards from './clinic-dashboard.service';
import * as notes from './patient-notes.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * The patient dashboards and a patient's notes. Every role of the side menu's Patients group (all
 * four) may open them; a Doctor only for their own patients, enforced in the service.
 */
export async function patientDashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Patient dashboard'];

  app.get('/api/patients/dashboard', {
    config: { menuPath: '/patients/dashboard' },
    schema: {
      tags,
      summary: "The clinic's day: today's and upcoming appointments, check-ins, completions and counts",
      querystring: clinicDashboardQuerySchema,
      response: { 200: clinicDashboardSchema, ...errors },
    },
    handler: async (request) => clinicDashboards.clinicDashboard(requireSignedIn(request.ctx), request.query),
  });

  app.get('/api/patients/:id/dashboard', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "One patient's demographics, appointments, pain trend, questionnaire results and notes",
      params: patientIdParamsSchema,
      response: { 200: patientDashboardSchema, ...errors },
    },
    handler: async (request) => dashboards.patientDashboard(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/patients/:id/notes', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "A patient's notes, newest first",
      params: patientIdParamsSchema,
      response: { 200: patientNoteListSchema, ...errors },
    },
    handler: async (request) => ({ data: await notes.listNotes(requireSignedIn(request.ctx), request.params.id) }),
  });

  app.post('/api/patients/:id/notes', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Add a note to a patient',
      params: patientIdParamsSchema,
      body: patientNoteInputSchema,
      response: { 201: patientNoteSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await notes.createNote(requireSignedIn(request.ctx), request.params.id, request.body)),
  });

  app.put('/api/patients/:id/notes/:noteId', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Change a note (its author or an Admin)',
      params: patientNoteParamsSchema,
      body: patientNoteInputSchema,
      response: { 200: patientNoteSchema, ...errors },
    },
    handler: async (request) =>
      notes.updateNote(requireSignedIn(request.ctx), request.params.id, request.params.noteId, request.body),
  });

  app.delete('/api/patients/:id/notes/:noteId', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Delete a note (its author or an Admin)',
      params: patientNoteParamsSchema,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await notes.deleteNote(requireSignedIn(request.ctx), request.params.id, request.params.noteId);
      return reply.status(204).send(null);
    },
  });
}
