import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  conversationListSchema,
  conversationThreadSchema,
  messageContactSchema,
  userMessageInputSchema,
  userMessageSchema,
} from '@pathwell/contracts/messaging';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as messages from './user-messages.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
/** The side menu's Messages item decides who may use them (System Manager, Admin, Doctor). */
const access = { menuPath: '/user-messages' };
const userParams = z.object({ userId: idSchema });

/**
 * Staff-to-staff messages (issue #11 §5, specification section 7 "Messaging"). Messages stay inside
 * the clinic the request acts for; a parent user acting for one clinic talks to that clinic's users.
 */
export async function userMessageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Messages'];

  app.get('/api/usermessages/users', {
    config: access,
    schema: {
      tags,
      summary: 'Users who exchanged messages with me: last message and unread count, newest first',
      response: { 200: conversationListSchema, ...errors },
    },
    handler: async (request) => messages.listConversations(requireSignedIn(request.ctx)),
  });

  app.get('/api/usermessages/contacts', {
    config: access,
    schema: {
      tags,
      summary: 'Active users of the clinic I can start a conversation with',
      response: { 200: z.array(messageContactSchema), ...errors },
    },
    handler: async (request) => messages.listContacts(requireSignedIn(request.ctx)),
  });

  app.get('/api/usermessages/:userId', {
    config: access,
    schema: {
      tags,
      summary: `The latest ${messages.THREAD_SIZE} messages between me and one user, oldest first`,
      params: userParams,
      response: { 200: conversationThreadSchema, ...errors },
    },
    handler: async (request) => messages.getThread(requireSignedIn(request.ctx), request.params.userId),
  });

  app.post('/api/usermessages/:userId', {
    config: access,
    schema: {
      tags,
      summary: 'Send a message to a user of the clinic',
      params: userParams,
      body: userMessageInputSchema,
      response: { 201: userMessageSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await messages.sendMessage(requireSignedIn(request.ctx), request.params.userId, request.body.text)),
  });

  app.post('/api/usermessages/markseen/:fromUserId', {
    config: access,
    schema: {
      tags,
      summary: 'Mark the messages of one user to me as seen',
      params: z.object({ fromUserId: idSchema }),
      response: { 200: z.object({ marked: z.number().int() }), ...errors },
    },
    handler: async (request) => messages.markSeen(requireSignedIn(request.ctx), request.params.fromUserId),
  });
}
