import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  enrolPathwaySchema,
  pathwayEnrolmentSchema,
  pathwayInputSchema,
  pathwayRosterPageSchema,
  pathwayRosterQuerySchema,
  pathwaySchema,
  pathwaySummarySchema,
  patientPathwaySchema,
} from '@pathwell/contracts/pathways';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { pathwayRoster } from './pathway-roster';
import * as enrolments from './pathway-enrolments.service';
import * as service from './pathways.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const staffRoles: readonly Role[] = ['Admin', 'Doctor', 'Staff', 'SystemManager'];
const staff = { roles: staffRoles };
const admins = { roles: ['Admin', 'SystemManager'] as readonly Role[] };
const idParams = z.object({ id: idSchema });
const option = z.object({ id: idSchema, name: z.string() });

/** Care pathways (issue #13, decision 0041): all four roles read and enrol; Admins build them. */
export async function pathwayRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Pathways'];

  app.get('/api/pathways', {
    config: staff,
    schema: {
      tags,
      summary: "The clinic's pathways with enrolment counts (and, for Admins, the completion rate)",
      response: { 200: z.array(pathwaySummarySchema), ...errors },
    },
    handler: async (request) => service.listPathways(requireSignedIn(request.ctx)),
  });

  app.get('/api/pathways/options', {
    config: staff,
    schema: {
      tags,
      summary: 'What a pathway can name: procedures and injections, study groups, custom forms',
      response: {
        200: z.object({
          procedures: z.array(option),
          studyGroups: z.array(option),
          customForms: z.array(z.object({ id: idSchema, title: z.string() })),
        }),
        ...errors,
      },
    },
    handler: async (request) => service.pathwayOptions(requireSignedIn(request.ctx)),
  });

  app.get('/api/pathways/:id', {
    config: staff,
    schema: { tags, summary: 'One pathway with its steps', params: idParams, response: { 200: pathwaySchema, ...errors } },
    handler: async (request) => service.getPathway(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/pathways/:id/roster', {
    config: staff,
    schema: {
      tags,
      summary: "The patients enrolled in a pathway with each step's result (a Doctor: their own patients)",
      params: idParams,
      querystring: pathwayRosterQuerySchema,
      response: { 200: pathwayRosterPageSchema, ...errors },
    },
    handler: async (request) => pathwayRoster(requireSignedIn(request.ctx), request.params.id, request.query),
  });

  app.post('/api/pathways', {
    config: admins,
    schema: {
      tags,
      summary: 'Create a pathway and its steps',
      body: pathwayInputSchema,
      response: { 201: pathwaySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createPathway(requireSignedIn(request.ctx), request.body)),
  });

  app.put('/api/pathways/:id', {
    config: admins,
    schema: {
      tags,
      summary: 'Replace a pathway and its steps (running enrolments keep their steps)',
      params: idParams,
      body: pathwayInputSchema,
      response: { 200: pathwaySchema, ...errors },
    },
    handler: async (request) => service.updatePathway(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/pathways/:id', {
    config: admins,
    schema: {
      tags,
      summary: 'Delete a pathway; its running enrolments stop',
      params: idParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await service.deletePathway(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/pathways/:id/enrol', {
    config: staff,
    schema: {
      tags,
      summary: 'Enrol a patient; every step is scheduled from the anchor',
      params: idParams,
      body: enrolPathwaySchema,
      response: { 201: pathwayEnrolmentSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await enrolments.enrolPatient(requireSignedIn(request.ctx), request.params.id, request.body)),
  });

  app.get('/api/pathways/enrolments/:enrolmentId', {
    config: staff,
    schema: {
      tags,
      summary: "One patient's pathway: steps, dates, reminders, scores with change from baseline",
      params: z.object({ enrolmentId: idSchema }),
      response: { 200: pathwayEnrolmentSchema, ...errors },
    },
    handler: async (request) => enrolments.enrolmentDetail(requireSignedIn(request.ctx), request.params.enrolmentId),
  });

  app.post('/api/pathways/enrolments/:enrolmentId/stop', {
    config: staff,
    schema: {
      tags,
      summary: 'Stop an enrolment: what was not sent is skipped',
      params: z.object({ enrolmentId: idSchema }),
      response: { 200: pathwayEnrolmentSchema, ...errors },
    },
    handler: async (request) => enrolments.stopEnrolment(requireSignedIn(request.ctx), request.params.enrolmentId),
  });

  app.post('/api/pathways/steprun/:runId/done', {
    config: staff,
    schema: {
      tags,
      summary: 'Mark a raised staff task done',
      params: z.object({ runId: idSchema }),
      response: { 200: pathwayEnrolmentSchema, ...errors },
    },
    handler: async (request) => enrolments.markTaskDone(requireSignedIn(request.ctx), request.params.runId),
  });

  app.get('/api/patients/:id/pathways', {
    config: staff,
    schema: {
      tags,
      summary: "A patient's pathways with the next step and its date",
      params: idParams,
      response: { 200: z.array(patientPathwaySchema), ...errors },
    },
    handler: async (request) => enrolments.patientPathways(requireSignedIn(request.ctx), request.params.id),
  });
}
