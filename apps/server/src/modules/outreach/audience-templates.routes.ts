import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  audiencePreviewRequestSchema,
  audiencePreviewSchema,
  audienceTemplateInputSchema,
  audienceTemplateListQuerySchema,
  audienceTemplateSchema,
} from '@pathwell/contracts/outreach';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { requireOutreach } from './outreach-access';
import * as service from './audience-templates.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
/** Templates are for System Managers and Admins, like campaigns (section 6, decision 0049). */
const access = { menuPath: '/patientcampaigns/dashboard' };
const idParams = z.object({ id: idSchema });

/** Code pull and hot-list templates and their audience preview (issue #15 §2). */
export async function audienceTemplateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Outreach'];
  const outreach = async (request: { ctx: Parameters<typeof requireSignedIn>[0] }) => {
    const ctx = requireSignedIn(request.ctx);
    await requireOutreach(ctx);
    return ctx;
  };

  app.get('/api/audiencetemplates', {
    config: access,
    schema: {
      tags,
      summary: 'The clinic’s code pull (campaign) or hot-list templates, by name',
      querystring: audienceTemplateListQuerySchema,
      response: { 200: z.object({ data: z.array(audienceTemplateSchema) }), ...errors },
    },
    handler: async (request) => ({ data: await service.listTemplates(await outreach(request), request.query.kind) }),
  });

  app.get('/api/audiencetemplates/:id', {
    config: access,
    schema: { tags, summary: 'One template', params: idParams, response: { 200: audienceTemplateSchema, ...errors } },
    handler: async (request) => service.getTemplate(await outreach(request), request.params.id),
  });

  app.post('/api/audiencetemplates', {
    config: access,
    schema: {
      tags,
      summary: 'Save an audience rule as a template',
      body: audienceTemplateInputSchema,
      response: { 201: audienceTemplateSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createTemplate(await outreach(request), request.body)),
  });

  app.put('/api/audiencetemplates/:id', {
    config: access,
    schema: {
      tags,
      summary: 'Change a template (its kind stays)',
      params: idParams,
      body: audienceTemplateInputSchema,
      response: { 200: audienceTemplateSchema, ...errors },
    },
    handler: async (request) => service.updateTemplate(await outreach(request), request.params.id, request.body),
  });

  app.delete('/api/audiencetemplates/:id', {
    config: access,
    schema: { tags, summary: 'Delete a template', params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await service.deleteTemplate(await outreach(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/patients/patientscontrollistfortemplate', {
    config: access,
    schema: {
      tags,
      summary: 'The audience of a rule or saved template now: the count and the first 25 patients by name',
      body: audiencePreviewRequestSchema,
      response: { 200: audiencePreviewSchema, ...errors },
    },
    handler: async (request) => service.previewTemplate(await outreach(request), request.body),
  });
}
