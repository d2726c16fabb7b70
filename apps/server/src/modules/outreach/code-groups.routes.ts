import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { codeGroupListSchema } from '@pathwell/contracts/encounter-imports';
import { codeGroupInputSchema, codeGroupSchema } from '@pathwell/contracts/outreach';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as service from './code-groups.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const params = z.object({ id: idSchema });

/** Code groups (issue #15 §1): System Manager and Admin, in clinics that use code pulls or campaigns. */
export async function codeGroupRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Code pulls'];
  const config = { menuPath: '/patientcampaigns/dashboard' };

  app.get('/api/codegroups', {
    config,
    schema: { tags, summary: "The clinic's code groups by name", response: { 200: codeGroupListSchema, ...errors } },
    handler: async (request) => service.listCodeGroups(requireSignedIn(request.ctx)),
  });

  app.post('/api/codegroups', {
    config,
    schema: {
      tags,
      summary: 'Name a set of ICD-10-CM and CPT/HCPCS codes; the name is unique in the clinic (409 when taken)',
      body: codeGroupInputSchema,
      response: { 201: codeGroupSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createCodeGroup(requireSignedIn(request.ctx), request.body)),
  });

  app.put('/api/codegroups/:id', {
    config,
    schema: {
      tags,
      summary: 'Rename a code group or replace its codes',
      params,
      body: codeGroupInputSchema,
      response: { 200: codeGroupSchema, ...errors },
    },
    handler: async (request) => service.updateCodeGroup(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/codegroups/:id', {
    config,
    schema: { tags, summary: 'Delete a code group', params, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await service.deleteCodeGroup(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
