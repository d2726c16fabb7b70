import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  painJournalEntrySchema,
  painJournalSavedSchema,
  painJournalViewSchema,
  painSeriesQuerySchema,
  painSeriesSchema,
  painTimelineSchema,
  recordedPainSchema,
  recordNewPainSchema,
  sendPainJournalSchema,
  sentPainJournalSchema,
} from '@pathwell/contracts/pain-journal';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { enterLinkClinic } from '../patient-contact/link-access.service';
import { linkRouteErrors, open, staffRoles, tokenParams } from '../patient-contact/link-requests.service';
import * as journalLinks from './pain-journal-links.service';
import * as journalEntries from './pain-journal-entries.service';
import * as painCharts from './pain-charts.service';
import * as painComplaints from './pain-complaints.service';

/**
 * Pain between visits (decision 0042): staff send the journal link and read the series and the chart's
 * points; the patient opens /periodicvas/{patientId}/{token} and records pain with no identity check
 * (the page shows nothing about them); a new complaint at a visit is recorded on the appointment.
 */
export async function painJournalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Pain journal'];
  const staff = { roles: staffRoles };
  const patientParams = z.object({ id: idSchema });

  app.post('/api/patients/:id/painjournal/send', {
    config: staff,
    schema: {
      tags,
      summary: 'Issue a pain journal link (30 days, one entry a clinic day) and send it by email or text; answers the URL',
      params: patientParams,
      body: sendPainJournalSchema,
      response: { 201: sentPainJournalSchema, ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const ctx = requireSignedIn(request.ctx);
      return reply.status(201).send(await journalLinks.sendPainJournalLink(ctx, request.params.id, request.body));
    },
  });

  app.get('/api/patients/painjournal', {
    config: staff,
    schema: {
      tags,
      summary: "Section 7 'painjournal?interval': journal and visit pain per day, week or month of the clinic's calendar",
      querystring: painSeriesQuerySchema,
      response: { 200: painSeriesSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      painCharts.painSeries(requireSignedIn(request.ctx), request.query.patientId, request.query.interval),
  });

  app.get('/api/patients/:id/paintimeline', {
    config: staff,
    schema: {
      tags,
      summary: "The pain chart's points: visits, journal entries with notes, and procedures performed",
      params: patientParams,
      response: { 200: painTimelineSchema, ...linkRouteErrors },
    },
    handler: async (request) => painCharts.painTimeline(requireSignedIn(request.ctx), request.params.id),
  });

  app.patch('/api/patientappointments/recordnewpain/:id', {
    config: staff,
    schema: {
      tags: ['Appointments'],
      summary: "Record a new pain complaint at a visit; sets the appointment's pain score (and body locations when given)",
      params: z.object({ id: idSchema }),
      body: recordNewPainSchema,
      response: { 200: recordedPainSchema, ...linkRouteErrors },
    },
    handler: async (request) => painComplaints.recordNewPain(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.get('/api/pain-journal/:token', {
    config: open(60),
    schema: {
      tags,
      summary: 'The pain journal page: clinic, language, link status and the last few days (dates and scores only)',
      params: tokenParams,
      response: { 200: painJournalViewSchema, ...linkRouteErrors },
    },
    handler: async (request) =>
      journalEntries.painJournalView(await enterLinkClinic(request.ctx, request.params.token), request.params.token),
  });

  app.post('/api/pain-journal/:token', {
    config: open(30),
    schema: {
      tags,
      summary: "Record today's pain (0–10) and a note; the same idempotency key again answers the first result",
      params: tokenParams,
      body: painJournalEntrySchema,
      response: { 200: painJournalSavedSchema, 201: painJournalSavedSchema, ...linkRouteErrors },
    },
    handler: async (request, reply) => {
      const result = await journalEntries.recordJournalEntry(
        await enterLinkClinic(request.ctx, request.params.token),
        request.params.token,
        request.body,
      );
      return reply.status(result.created ? 201 : 200).send(result.body);
    },
  });
}
