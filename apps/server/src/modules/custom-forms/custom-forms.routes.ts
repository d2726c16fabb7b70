import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customFormDetailSchema,
  customFormListQuerySchema,
  customFormPageSchema,
  customFormVersionParamsSchema,
  customFormVersionSchema,
} from '@pathwell/contracts/custom-forms';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { formContentSchema } from '@pathwell/contracts/forms';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as customForms from './custom-forms.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const idParams = z.object({ id: idSchema });
const tags = ['Custom forms'];
/** Writes follow the Custom Forms item of the Admin menu (Admin, System Manager); every staff role reads. */
const writeAccess = { menuPath: '/customforms' };

export async function customFormRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/customforms', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'List custom forms: title contains, archived or in use, paged',
      querystring: customFormListQuerySchema,
      response: { 200: customFormPageSchema, ...errors },
    },
    handler: async (request) => customForms.listForms(requireSignedIn(request.ctx), request.query),
  });

  app.get('/api/customforms/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One custom form: its current content and its versions',
      params: idParams,
      response: { 200: customFormDetailSchema, ...errors },
    },
    handler: async (request) => customForms.getForm(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/customforms/:id/versions/:version', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One version of a custom form, as the patients who answered it saw it',
      params: customFormVersionParamsSchema,
      response: { 200: customFormVersionSchema, ...errors },
    },
    handler: async (request) => customForms.getVersion(requireSignedIn(request.ctx), request.params.id, request.params.version),
  });

  app.post('/api/customforms', {
    config: writeAccess,
    schema: {
      tags,
      summary: 'Create a custom form',
      body: formContentSchema,
      response: { 201: customFormDetailSchema, ...errors },
    },
    handler: async (request, reply) => {
      const created = await customForms.createForm(requireSignedIn(request.ctx), request.body);
      return reply.status(201).send(created);
    },
  });

  app.put('/api/customforms/:id', {
    config: writeAccess,
    schema: {
      tags,
      summary: 'Save a custom form: a new version when the current one has responses, else in place',
      params: idParams,
      body: formContentSchema,
      response: { 200: customFormDetailSchema, ...errors },
    },
    handler: async (request) => customForms.updateForm(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/customforms/:id', {
    config: writeAccess,
    schema: { tags, summary: 'Archive a custom form', params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await customForms.setArchived(requireSignedIn(request.ctx), request.params.id, true);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/customforms/:id/restore', {
    config: writeAccess,
    schema: { tags, summary: 'Restore an archived custom form', params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await customForms.setArchived(requireSignedIn(request.ctx), request.params.id, false);
      return reply.status(204).send(null);
    },
  });
}
