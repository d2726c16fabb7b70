import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  createInstanceSchema,
  currentInstanceSchema,
  instanceSchema,
  organisationSchema,
  saveOrganisationSchema,
  updateInstanceSchema,
} from '@pathwell/contracts/instances';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn, withSystemContext, type SignedInContext } from '../../context';

/**
 * Instances and parent organisations span clinics by nature (a System Manager's list, a parent user's
 * organisation); who may see which is decided in the services, through the 'clinic-administration' door.
 */
const acrossClinics =
  <A extends unknown[], T>(work: (ctx: SignedInContext, ...args: A) => Promise<T>) =>
  (ctx: SignedInContext, ...args: A) =>
    withSystemContext(ctx, 'clinic-administration', (scoped) => work(scoped, ...args));
import * as clinics from './clinics.service';
import * as instances from './instances.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const params = z.object({ id: idSchema });
/** Creating and switching off instances is the System Manager's; Admins see and rename their own. */
const systemManagerOnly = { roles: ['SystemManager'] as const };

export async function instanceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Instances'];

  app.get('/api/instances/current', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'The instance this request acts for (section 7 "get current instance id")',
      response: { 200: currentInstanceSchema, ...errors },
    },
    handler: async (request) => acrossClinics(instances.currentInstance)(requireSignedIn(request.ctx)),
  });

  app.get('/api/instances', {
    config: { menuPath: '/instances' },
    schema: {
      tags,
      summary: 'Instances the user may see, sorted by name',
      response: { 200: z.array(instanceSchema), ...errors },
    },
    handler: async (request) => acrossClinics(instances.listInstances)(requireSignedIn(request.ctx)),
  });

  app.get('/api/instances/:id', {
    config: { menuPath: '/instances' },
    schema: { tags, summary: 'One instance', params, response: { 200: instanceSchema, ...errors } },
    handler: async (request) => acrossClinics(instances.getInstance)(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/instances', {
    config: systemManagerOnly,
    schema: {
      tags,
      summary: 'Create an instance with default settings and managed lists',
      body: createInstanceSchema,
      response: { 201: instanceSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await acrossClinics(instances.createInstance)(requireSignedIn(request.ctx), request.body)),
  });

  app.put('/api/instances/:id', {
    config: { menuPath: '/instances' },
    schema: {
      tags,
      summary: 'Rename an instance; a System Manager also sets its organisation and active flag',
      params,
      body: updateInstanceSchema,
      response: { 200: instanceSchema, ...errors },
    },
    handler: async (request) =>
      acrossClinics(instances.updateInstance)(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/instances/:id', {
    config: systemManagerOnly,
    schema: { tags, summary: 'Switch an instance off (records and logs stay)', params, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await acrossClinics(instances.deleteInstance)(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  const clinicTags = ['Clinics'];
  const clinicAccess = { menuPath: '/clinics', allClinics: true };

  app.get('/api/clinics', {
    config: clinicAccess,
    schema: {
      tags: clinicTags,
      summary: 'Parent organisations and their instances',
      response: { 200: z.array(organisationSchema), ...errors },
    },
    handler: async (request) => acrossClinics(clinics.listOrganisations)(requireSignedIn(request.ctx)),
  });

  app.get('/api/clinics/:id', {
    config: clinicAccess,
    schema: { tags: clinicTags, summary: 'One parent organisation', params, response: { 200: organisationSchema, ...errors } },
    handler: async (request) => acrossClinics(clinics.getOrganisation)(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/clinics', {
    config: clinicAccess,
    schema: {
      tags: clinicTags,
      summary: 'Create a parent organisation grouping instances',
      body: saveOrganisationSchema,
      response: { 201: organisationSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await acrossClinics(clinics.createOrganisation)(requireSignedIn(request.ctx), request.body)),
  });

  app.put('/api/clinics/:id', {
    config: clinicAccess,
    schema: {
      tags: clinicTags,
      summary: 'Rename a parent organisation and set its instances',
      params,
      body: saveOrganisationSchema,
      response: { 200: organisationSchema, ...errors },
    },
    handler: async (request) =>
      acrossClinics(clinics.updateOrganisation)(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/clinics/:id', {
    config: clinicAccess,
    schema: {
      tags: clinicTags,
      summary: 'Delete a parent organisation (its instances stay)',
      params,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await acrossClinics(clinics.deleteOrganisation)(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
