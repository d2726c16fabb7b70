import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { notificationIdsSchema, notificationListSchema, notificationPageSchema } from '@pathwell/contracts/messaging';
import { paginationFilterSchemaOf } from '@pathwell/contracts/paging';
import { requireSignedIn } from '../../context';
import { latestNotifications, markNotifications, notificationPage } from './notifications.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const marked = z.object({ marked: z.number().int() });

/** The top-bar bell and the notification page: every signed-in role has them (specification section 2). */
export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/notifications', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'The bell: unseen count and the latest 50 notifications, newest first',
      response: { 200: notificationListSchema, ...errors },
    },
    handler: async (request) => latestNotifications(requireSignedIn(request.ctx)),
  });

  app.get('/api/notifications/paged', {
    config: { menuPath: '/patients/nevro/chatternotification', allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'Every notification, newest first, paged',
      querystring: paginationFilterSchemaOf({ maxPageSize: 100, coerce: true }).extend({
        exactTotal: z
          .enum(['true', 'false'])
          .optional()
          .transform((value) => value === 'true'),
      }),
      response: { 200: notificationPageSchema, ...errors },
    },
    handler: async (request) => notificationPage(requireSignedIn(request.ctx), request.query),
  });

  app.post('/api/notifications/seen', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'Marks notifications seen (clicked)',
      body: notificationIdsSchema,
      response: { 200: marked, ...errors },
    },
    handler: async (request) => markNotifications(requireSignedIn(request.ctx), request.body.ids, 'seen'),
  });

  app.post('/api/notifications/clearall', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'Clear All: marks every unseen notification seen',
      response: { 200: marked, ...errors },
    },
    handler: async (request) => markNotifications(requireSignedIn(request.ctx), 'all-unseen', 'seen'),
  });

  app.post('/api/notifications/notified', {
    config: { anyRole: true, allClinics: true },
    schema: {
      tags: ['Notifications'],
      summary: 'Records that the popup has shown these notifications (it shows once)',
      body: notificationIdsSchema,
      response: { 200: marked, ...errors },
    },
    handler: async (request) => markNotifications(requireSignedIn(request.ctx), request.body.ids, 'notified'),
  });
}
