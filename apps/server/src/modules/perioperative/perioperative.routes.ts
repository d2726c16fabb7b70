import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  ADMIN_GROUP_MENU_PATH,
  perioperativeDetailInputSchema,
  perioperativeDetailSchema,
  perioperativeTemplateInputSchema,
  perioperativeTemplateListQuerySchema,
  perioperativeTemplatePageSchema,
  perioperativeTemplateSchema,
} from '@pathwell/contracts/managed-lists';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as templates from './perioperative.service';
import { patientMessages, schedulePerioperative, sendPerioperativeNow } from './perioperative-messages.service';
import {
  patientMessageSchema,
  perioperativeScheduleResultSchema,
  perioperativeScheduleSchema,
  perioperativeSendNowSchema,
} from '@pathwell/contracts/messaging';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const BASE = '/api/perioperativemessagetemplates';
const templateParams = z.object({ id: idSchema });
const detailParams = z.object({ id: idSchema, detailId: idSchema });

/**
 * Perioperative message templates and their timed messages (section 7: CRUD, and details created,
 * updated and deleted by template id). Reads serve every role (reports filter by template); writes
 * follow the Admin group of the side menu, as the managed lists do.
 */
export async function perioperativeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Perioperative message templates'];
  const write = { menuPath: ADMIN_GROUP_MENU_PATH };

  app.get(BASE, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'List templates: search by name, filter by CPT code or active flag, paged',
      querystring: perioperativeTemplateListQuerySchema,
      response: { 200: perioperativeTemplatePageSchema, ...errors },
    },
    handler: async (request) => templates.listTemplates(requireSignedIn(request.ctx), request.query),
  });

  app.get(`${BASE}/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One template with its messages',
      params: templateParams,
      response: { 200: perioperativeTemplateSchema, ...errors },
    },
    handler: async (request) => templates.getTemplate(requireSignedIn(request.ctx), request.params.id),
  });

  app.post(BASE, {
    config: write,
    schema: {
      tags,
      summary: 'Add a template',
      body: perioperativeTemplateInputSchema,
      response: { 201: perioperativeTemplateSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await templates.createTemplate(requireSignedIn(request.ctx), request.body)),
  });

  app.put(`${BASE}/:id`, {
    config: write,
    schema: {
      tags,
      summary: 'Update a template',
      params: templateParams,
      body: perioperativeTemplateInputSchema,
      response: { 200: perioperativeTemplateSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request) => templates.updateTemplate(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete(`${BASE}/:id`, {
    config: write,
    schema: { tags, summary: 'Delete a template (soft)', params: templateParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await templates.deleteTemplate(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${BASE}/:id/details`, {
    config: write,
    schema: {
      tags,
      summary: 'Add a timed message to a template',
      params: templateParams,
      body: perioperativeDetailInputSchema,
      response: { 201: perioperativeDetailSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await templates.createDetail(requireSignedIn(request.ctx), request.params.id, request.body)),
  });

  app.put(`${BASE}/:id/details/:detailId`, {
    config: write,
    schema: {
      tags,
      summary: "Update one of a template's messages",
      params: detailParams,
      body: perioperativeDetailInputSchema,
      response: { 200: perioperativeDetailSchema, ...errors },
    },
    handler: async (request) =>
      templates.updateDetail(requireSignedIn(request.ctx), request.params.id, request.params.detailId, request.body),
  });

  app.delete(`${BASE}/:id/details/:detailId`, {
    config: write,
    schema: {
      tags,
      summary: "Delete one of a template's messages",
      params: detailParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await templates.deleteDetail(requireSignedIn(request.ctx), request.params.id, request.params.detailId);
      return reply.status(204).send(null);
    },
  });

  app.post(`${BASE}/:id/duplicate`, {
    config: write,
    schema: {
      tags,
      summary: 'Duplicate a template with its messages',
      params: templateParams,
      response: { 201: perioperativeTemplateSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await templates.duplicateTemplate(requireSignedIn(request.ctx), request.params.id)),
  });

  // Messages to a patient: whoever may open the patient (a Doctor only their own patients).
  const patientAccess = { menuPath: '/patients/list' };
  const messageTags = ['Perioperative messages'];

  app.post('/api/perioperativemessages/schedule', {
    config: patientAccess,
    schema: {
      tags: messageTags,
      summary: "Schedule a template's messages for a patient, each on its day relative to the procedure date (9:00 clinic time)",
      body: perioperativeScheduleSchema,
      response: { 201: perioperativeScheduleResultSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await schedulePerioperative(requireSignedIn(request.ctx), request.body)),
  });

  app.post('/api/perioperativemessages/send', {
    config: patientAccess,
    schema: {
      tags: messageTags,
      summary: "Send one of a template's messages to a patient now",
      body: perioperativeSendNowSchema,
      response: { 201: patientMessageSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await sendPerioperativeNow(requireSignedIn(request.ctx), request.body)),
  });

  app.get('/api/patients/:id/messages', {
    config: patientAccess,
    schema: {
      tags: messageTags,
      summary: 'Messages to the patient, scheduled and sent, newest first (the last 100)',
      params: z.object({ id: idSchema }),
      response: { 200: z.array(patientMessageSchema), ...errors },
    },
    handler: async (request) => patientMessages(requireSignedIn(request.ctx), request.params.id),
  });
}
