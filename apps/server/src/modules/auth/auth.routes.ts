import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  changePasswordSchema,
  confirmSignUpSchema,
  forgetPasswordSchema,
  messageSchema,
  resendWelcomeSchema,
  setPasswordSchema,
  signInResultSchema,
  signInSchema,
  signUpSchema,
  twoFactorSendSchema,
  twoFactorToggleSchema,
  twoFactorVerifySchema,
  updateMyAccountSchema,
  userProfileSchema,
} from '@pathwell/contracts/users';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn, withSystemContext, type ServiceContext } from '../../context';
import { confirmSignUp, signUp } from './sign-up.service';
import { authenticate, resendTwoFactor, signOut, verifyTwoFactor } from './sign-in.service';
import { getUser, setTwoFactor, updateMyAccount } from './my-account.service';
import { changePassword, forgetPassword, sendWelcomeEmail, setPassword } from './passwords.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
/** Open account routes that send email are rate limited per IP on top of their own rules. */
const openLimit = { rateLimit: { max: 10, timeWindow: '1 minute' } };

/** Accounts are found by email, token or id before any clinic is known: the 'staff-account' door. */
const onAccounts = <C extends ServiceContext, T>(ctx: C, work: (ctx: C) => Promise<T>) =>
  withSystemContext(ctx, 'staff-account', work);

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Users'];

  app.post('/api/users', {
    config: { public: true, ...openLimit },
    schema: { tags, summary: 'Sign up', body: signUpSchema, response: { 201: messageSchema, ...errors } },
    handler: async (request, reply) =>
      reply.status(201).send(await onAccounts(request.ctx, (ctx) => signUp(ctx, request.log, request.body))),
  });

  app.post('/api/users/confirmSignup', {
    config: { public: true, ...openLimit },
    schema: {
      tags,
      summary: 'Confirm a sign-up email address',
      body: confirmSignUpSchema,
      response: { 200: messageSchema, ...errors },
    },
    handler: async (request) => onAccounts(request.ctx, (ctx) => confirmSignUp(ctx, request.body)),
  });

  app.post('/api/users/authenticate', {
    config: { public: true },
    schema: { tags, summary: 'Sign in', body: signInSchema, response: { 200: signInResultSchema, ...errors } },
    handler: async (request) => onAccounts(request.ctx, (ctx) => authenticate(ctx, request.log, request.body)),
  });

  app.post('/api/users/twofactor/verify', {
    config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'Complete sign-in with the emailed code',
      body: twoFactorVerifySchema,
      response: { 200: signInResultSchema, ...errors },
    },
    handler: async (request) => onAccounts(request.ctx, (ctx) => verifyTwoFactor(ctx, request.body)),
  });

  app.post('/api/users/twofactor/send', {
    config: { public: true, ...openLimit },
    schema: { tags, summary: 'Send a new sign-in code', body: twoFactorSendSchema, response: { 200: messageSchema, ...errors } },
    handler: async (request) => onAccounts(request.ctx, (ctx) => resendTwoFactor(ctx, request.log, request.body)),
  });

  app.post('/api/users/signout', {
    config: { anyRole: true, allClinics: true },
    schema: { tags, summary: 'Sign out: revokes this session', response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await onAccounts(requireSignedIn(request.ctx), signOut);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/users/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'A user profile',
      params: z.object({ id: idSchema }),
      response: { 200: userProfileSchema, ...errors },
    },
    handler: async (request) => getUser(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/users/me', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags,
      summary: 'Update my account',
      body: updateMyAccountSchema,
      response: { 200: userProfileSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request) => onAccounts(requireSignedIn(request.ctx), (ctx) => updateMyAccount(ctx, request.body)),
  });

  app.put('/api/users/me/twofactor', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags,
      summary: 'Turn my two-factor sign-in on or off',
      body: twoFactorToggleSchema,
      response: { 200: userProfileSchema, ...errors },
    },
    handler: async (request) => onAccounts(requireSignedIn(request.ctx), (ctx) => setTwoFactor(ctx, request.body.enabled)),
  });

  app.post('/api/users/forgetPassword', {
    config: { public: true, ...openLimit },
    schema: {
      tags,
      summary: 'Email a password reset link',
      body: forgetPasswordSchema,
      response: { 200: messageSchema, ...errors },
    },
    handler: async (request) => onAccounts(request.ctx, (ctx) => forgetPassword(ctx, request.log, request.body)),
  });

  app.post('/api/users/changepassword', {
    config: { anyRole: true, allClinics: true },
    schema: { tags, summary: 'Change my password', body: changePasswordSchema, response: { 200: messageSchema, ...errors } },
    handler: async (request) => onAccounts(requireSignedIn(request.ctx), (ctx) => changePassword(ctx, request.body)),
  });

  app.post('/api/users/setPassword', {
    config: { public: true, ...openLimit },
    schema: {
      tags,
      summary: 'Set a password from a welcome or reset link',
      body: setPasswordSchema,
      response: { 200: messageSchema, ...errors },
    },
    handler: async (request) => onAccounts(request.ctx, (ctx) => setPassword(ctx, request.body)),
  });

  app.post('/api/users/resendWelcomeEmail', {
    config: { public: true, ...openLimit },
    schema: {
      tags,
      summary: 'Send the set-up email again',
      body: resendWelcomeSchema,
      response: { 200: messageSchema, ...errors },
    },
    handler: async (request) => onAccounts(request.ctx, (ctx) => sendWelcomeEmail(ctx, request.log, request.body.id)),
  });
}
