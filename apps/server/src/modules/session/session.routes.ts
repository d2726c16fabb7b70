import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { sessionContextSchema } from '@pathwell/contracts/session';
import { clinicSchema, doctorSchema } from '@pathwell/contracts/users';
import { requireSignedIn, withSystemContext } from '../../context';
import { listClinics, listProviders, sessionContext } from './session.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

export async function sessionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/session', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Session'],
      summary: 'The signed-in user, the acting clinic and its shell settings',
      response: { 200: sessionContextSchema, ...errors },
    },
    handler: async (request) => withSystemContext(requireSignedIn(request.ctx), 'staff-memberships', sessionContext),
  });

  app.post('/api/session/keepalive', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Session'],
      summary: 'Marks the session active (the web calls it on user activity so the idle timeout follows the person, not the API)',
      response: { 204: z.null(), ...errors },
    },
    handler: async (_request, reply) => reply.status(204).send(null),
  });

  app.get('/api/parent/clinics', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Session'],
      summary: 'Clinics the user can switch to, sorted by name',
      response: { 200: z.array(clinicSchema), ...errors },
    },
    handler: async (request) => withSystemContext(requireSignedIn(request.ctx), 'staff-memberships', listClinics),
  });

  app.get('/api/users/providers', {
    config: { anyRole: true },
    schema: {
      tags: ['Users'],
      summary: 'Doctors of the acting clinic (doctor selector)',
      response: { 200: z.array(doctorSchema), ...errors },
    },
    handler: async (request) => listProviders(requireSignedIn(request.ctx)),
  });
}
