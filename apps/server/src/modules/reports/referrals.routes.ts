import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  referralPatientsFilterSchema,
  referralPatientsSchema,
  referralTrackerFilterSchema,
  referralTrackerSchema,
} from '@pathwell/contracts/reports-referrals';
import { requireSignedIn } from '../../context';
import * as service from './referrals.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The referral tracker (issue #14 §4, decision 0048): Reports roles of section 6, through the page's menu rule. */
export async function referralTrackerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reports'];
  const config = { menuPath: '/reports/refferaltracker' };

  app.post('/api/reports/referraltracker', {
    config,
    schema: {
      tags,
      summary:
        'Patients per referral source and referring provider per month or quarter: referred, seen, had a procedure, improved',
      body: referralTrackerFilterSchema,
      response: { 200: referralTrackerSchema, ...errors },
    },
    handler: async (request) => service.referralTracker(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/reports/referraltracker/patients', {
    config,
    schema: {
      tags,
      summary: "The patients behind one of the referral tracker's numbers, a page at a time (audited)",
      body: referralPatientsFilterSchema,
      response: { 200: referralPatientsSchema, ...errors },
    },
    handler: async (request) => service.referralPatients(requireSignedIn(request.ctx), request.body),
  });
}
