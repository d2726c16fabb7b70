import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import type { Role } from '@pathwell/contracts/roles';
import {
  createUserSchema,
  sendWelcomeEmailSchema,
  setPinSchema,
  systemUserDetailSchema,
  updateUserResultSchema,
  updateUserSchema,
  userActiveSchema,
  userFilterSchema,
  userPageSchema,
  userTwoFactorSchema,
  validatePinResultSchema,
  validatePinSchema,
} from '@pathwell/contracts/user-admin';
import { messageSchema } from '@pathwell/contracts/users';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn, withSystemContext, type SignedInContext } from '../../context';
import * as users from './users.service';

/**
 * A staff account's email is unique across clinics and a parent user's memberships span several: the
 * user form reads and writes them through the 'staff-memberships' door. Which clinics an actor may
 * change is the service's rule (only those the actor works in).
 */
const withMemberships =
  <A extends unknown[], T>(work: (ctx: SignedInContext, ...args: A) => Promise<T>) =>
  (ctx: SignedInContext, ...args: A) =>
    withSystemContext(ctx, 'staff-memberships', (scoped) => work(scoped, ...args));

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
/** Doctors see the System Users list (menu rule of section 6); only administrators change it. */
const managers: readonly Role[] = ['SystemManager', 'Admin'];
const listAccess = { menuPath: '/users', allClinics: true };
const manageAccess = { roles: managers, allClinics: true };
const params = z.object({ id: idSchema });

/** System Users administration (specification section 7 Users); sign-in and own account live in modules/auth. */
export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['System Users'];

  app.post('/api/users/fetchAll', {
    config: listAccess,
    schema: {
      tags,
      summary: 'Users of the clinic, paged and filtered (also the doctor selector: role Doctor, pageSize 999, status 1)',
      body: userFilterSchema,
      response: { 200: userPageSchema, ...errors },
    },
    handler: async (request) => users.fetchAllUsers(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/users/:id/details', {
    config: listAccess,
    schema: {
      tags,
      summary: 'One user of the clinic with what the user form edits',
      params,
      response: { 200: systemUserDetailSchema, ...errors },
    },
    handler: async (request) => withMemberships(users.getUserDetail)(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/users/register', {
    config: manageAccess,
    schema: {
      tags,
      summary: 'Create a user of the clinic and email the set-password link (valid 72 hours)',
      body: createUserSchema,
      response: { 201: systemUserDetailSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await withMemberships(users.registerUser)(requireSignedIn(request.ctx), request.log, request.body)),
  });

  app.put('/api/users/:id', {
    config: manageAccess,
    schema: {
      tags,
      summary: 'Update a user; answers isSuccess true (section 5)',
      params,
      body: updateUserSchema,
      response: { 200: updateUserResultSchema, ...errors },
    },
    handler: async (request) => withMemberships(users.updateUser)(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/users/:id', {
    config: manageAccess,
    schema: {
      tags,
      summary: 'Delete a user (soft: history stays, sessions end)',
      params,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await withMemberships(users.deleteUser)(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/users/sendwelcomeemail', {
    config: manageAccess,
    schema: {
      tags,
      summary: 'Send the welcome (set-password) email again',
      body: sendWelcomeEmailSchema,
      response: { 200: messageSchema, ...errors },
    },
    handler: async (request) => users.resendWelcomeEmail(requireSignedIn(request.ctx), request.log, request.body.id),
  });

  app.put('/api/users/:id/twofactor', {
    config: manageAccess,
    schema: {
      tags,
      summary: "Turn a user's two-factor sign-in on or off",
      params,
      body: userTwoFactorSchema,
      response: { 200: systemUserDetailSchema, ...errors },
    },
    handler: async (request) => users.setUserTwoFactor(requireSignedIn(request.ctx), request.params.id, request.body.enabled),
  });

  app.put('/api/users/:id/active', {
    config: manageAccess,
    schema: {
      tags,
      summary: 'Switch a user on or off (off ends their sessions)',
      params,
      body: userActiveSchema,
      response: { 200: systemUserDetailSchema, ...errors },
    },
    handler: async (request) => users.setUserActive(requireSignedIn(request.ctx), request.params.id, request.body.isActive),
  });

  app.put('/api/users/:id/pin', {
    config: manageAccess,
    schema: {
      tags,
      summary: "Set an administrator's 6-digit PIN for cash collection",
      params,
      body: setPinSchema,
      response: { 200: systemUserDetailSchema, ...errors },
    },
    handler: async (request) => users.setUserPin(requireSignedIn(request.ctx), request.params.id, request.body.pin),
  });

  app.post('/api/users/pin/validate', {
    config: { roles: managers },
    schema: {
      tags,
      summary: "Check the signed-in administrator's PIN (5 wrong attempts per 15 minutes, then 429)",
      body: validatePinSchema,
      response: { 200: validatePinResultSchema, ...errors },
    },
    handler: async (request) => users.validatePin(requireSignedIn(request.ctx), request.body.pin),
  });
}
