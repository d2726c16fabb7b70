import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminDashboardSchema } from '@pathwell/contracts/admin-dashboard';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { requireSignedIn } from '../../context';
import { adminDashboard } from './admin-dashboard.service';

export async function adminDashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/dashboard', {
    config: { menuPath: '/admin/dashboard' },
    schema: {
      tags: ['Admin'],
      summary: 'Counts and latest activity of the acting clinic',
      response: { 200: adminDashboardSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    },
    handler: async (request) => adminDashboard(requireSignedIn(request.ctx)),
  });
}
