import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  hotlistDashboardSchema,
  hotlistDetailSchema,
  hotlistEntriesQuerySchema,
  hotlistInputSchema,
  hotlistNextSchema,
  hotlistOutcomeInputSchema,
  hotlistQueueSchema,
  hotlistSummarySchema,
} from '@pathwell/contracts/hotlists';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as service from './hotlists.service';
import * as calls from './hotlist-calls.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
/** Working a list: System Manager, Admin and Staff, through the Patient Hotlist menu item (decision 0049). */
const work = { menuPath: '/patienthotlist/dashboard' };
/** Making, finishing and deleting lists stays with managers. */
const manage = { roles: ['SystemManager', 'Admin'] as readonly Role[] };
const idParams = z.object({ id: idSchema });
const entryParams = z.object({ id: idSchema, entryId: idSchema });

/** Hot lists (issue #15 §4, decision 0052). */
export async function hotlistRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Hot lists'];

  app.get('/api/hotlists', {
    config: work,
    schema: {
      tags,
      summary: "The clinic's hot lists with their progress, and calls per staff member",
      response: { 200: hotlistDashboardSchema, ...errors },
    },
    handler: async (request) => service.listHotlists(requireSignedIn(request.ctx)),
  });

  app.post('/api/hotlists', {
    config: manage,
    schema: {
      tags,
      summary: "Make a hot list: the hot-list template's patients are frozen now, in name order",
      body: hotlistInputSchema,
      response: { 201: hotlistSummarySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createHotlist(requireSignedIn(request.ctx), request.body)),
  });

  app.get('/api/hotlists/:id', {
    config: work,
    schema: {
      tags,
      summary: 'One hot list: progress, calls per staff member and a page of its patients (audited)',
      params: idParams,
      querystring: hotlistEntriesQuerySchema,
      response: { 200: hotlistDetailSchema, ...errors },
    },
    handler: async (request) => service.getHotlist(requireSignedIn(request.ctx), request.params.id, request.query),
  });

  app.post('/api/hotlists/:id/next', {
    config: work,
    schema: {
      tags,
      summary:
        'Claim the next patient to call for 15 minutes (the one already held, else the next due that nobody holds); entry null when nobody is due',
      params: idParams,
      response: { 200: hotlistNextSchema, ...errors },
    },
    handler: async (request) => calls.nextEntry(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/hotlists/:id/entries/:entryId/outcome', {
    config: work,
    schema: {
      tags,
      summary:
        'Record what came of the call (only the staff member calling); a voicemail or call-back brings the patient back later',
      params: entryParams,
      body: hotlistOutcomeInputSchema,
      response: { 200: hotlistQueueSchema, ...errors },
    },
    handler: async (request) =>
      calls.recordOutcome(requireSignedIn(request.ctx), request.params.id, request.params.entryId, request.body),
  });

  app.post('/api/hotlists/:id/entries/:entryId/release', {
    config: work,
    schema: {
      tags,
      summary: 'Hand the patient back to the queue without a call',
      params: entryParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await calls.releaseEntry(requireSignedIn(request.ctx), request.params.id, request.params.entryId);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/hotlists/:id/finish', {
    config: manage,
    schema: {
      tags,
      summary: 'Finish a hot list: nobody works it any more',
      params: idParams,
      response: { 200: hotlistSummarySchema, ...errors },
    },
    handler: async (request) => service.finishHotlist(requireSignedIn(request.ctx), request.params.id),
  });

  app.delete('/api/hotlists/:id', {
    config: manage,
    schema: {
      tags,
      summary: 'Delete a hot list (its calls and do-not-call answers are kept)',
      params: idParams,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await service.deleteHotlist(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
