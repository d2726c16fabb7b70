import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  campaignApprovalAudienceQuerySchema,
  campaignApprovalAudienceSchema,
  campaignApproveInputSchema,
  campaignAudienceInputSchema,
  campaignAudiencePreviewSchema,
  campaignDetailSchema,
  campaignInputSchema,
  campaignListQuerySchema,
  campaignRecipientSchema,
  campaignRecipientsQuerySchema,
  campaignResponseSchema,
  campaignResponsesQuerySchema,
  campaignResultsQuerySchema,
  campaignSummarySchema,
  textSendingInputSchema,
} from '@pathwell/contracts/campaigns';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as approval from './campaign-approval.service';
import * as service from './campaigns.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const changeErrors = { ...errors, 409: errorBodySchema };
const params = z.object({ id: idSchema });

/**
 * Campaigns (issue #15 §3, decision 0051): System Managers and Admins through the Patient Campaigns menu
 * item; Campaign Results also Doctors (their own patients). Every route answers 403 `featureOff` in a
 * clinic that does not use campaigns.
 */
export async function campaignRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Campaigns'];
  const config = { menuPath: '/patientcampaigns/dashboard' };

  app.get('/api/campaigns', {
    config,
    schema: {
      tags,
      summary: "The clinic's campaigns, newest first, each with its funnel",
      querystring: campaignListQuerySchema,
      response: { 200: z.object({ totalRecords: z.number().int(), data: z.array(campaignSummarySchema) }), ...errors },
    },
    handler: async (request) => service.listCampaigns(requireSignedIn(request.ctx), request.query),
  });

  app.post('/api/campaigns', {
    config,
    schema: {
      tags,
      summary: 'Creates a draft campaign from a code pull template',
      body: campaignInputSchema,
      response: { 201: campaignDetailSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createCampaign(requireSignedIn(request.ctx), request.body)),
  });

  app.get('/api/campaigns/results', {
    config: { menuPath: '/patientcampaigns/results' },
    schema: {
      tags,
      summary: "Campaign Results: each campaign's funnel (a Doctor's numbers count their own patients only)",
      querystring: campaignResultsQuerySchema,
      response: { 200: z.object({ data: z.array(campaignSummarySchema) }), ...errors },
    },
    handler: async (request) => service.campaignResults(requireSignedIn(request.ctx), request.query),
  });

  app.post('/api/campaigns/audience', {
    config,
    schema: {
      tags,
      summary: 'Who a campaign with this template and channels would reach now: the count and the first 25 (audited)',
      body: campaignAudienceInputSchema,
      response: { 200: campaignAudiencePreviewSchema, ...errors },
    },
    handler: async (request) => service.campaignAudience(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/campaigns/:id', {
    config,
    schema: {
      tags,
      summary: 'One campaign: its message, funnel, what the signed-in user may do, and a filled-in preview',
      params,
      response: { 200: campaignDetailSchema, ...errors },
    },
    handler: async (request) => service.getCampaign(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/campaigns/:id', {
    config,
    schema: {
      tags,
      summary: 'Changes a draft campaign (409 once approved)',
      params,
      body: campaignInputSchema,
      response: { 200: campaignDetailSchema, ...changeErrors },
    },
    handler: async (request) => service.updateCampaign(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/campaigns/:id', {
    config,
    schema: {
      tags,
      summary: 'Deletes a campaign before anything was sent (409 afterwards: archive it instead)',
      params,
      response: { 204: z.null(), ...changeErrors },
    },
    handler: async (request, reply) => {
      await service.deleteCampaign(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/campaigns/:id/approve', {
    config,
    schema: {
      tags,
      summary:
        'Approves a draft as reviewed (its content digest; 409 when it changed since) and freezes its recipients; ' +
        'never by someone who wrote or changed it, nor while a channel it uses is off in the clinic (409)',
      params,
      body: campaignApproveInputSchema,
      response: { 200: campaignDetailSchema, ...changeErrors },
    },
    handler: async (request) => approval.approveCampaign(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.get('/api/campaigns/:id/audience', {
    config,
    schema: {
      tags,
      summary: 'Who approving this campaign now would message: the count and a page of patients by name (audited)',
      params,
      querystring: campaignApprovalAudienceQuerySchema,
      response: { 200: campaignApprovalAudienceSchema, ...changeErrors },
    },
    handler: async (request) => approval.campaignApprovalAudience(requireSignedIn(request.ctx), request.params.id, request.query),
  });

  app.put('/api/campaigns/:id/textsending', {
    config,
    schema: {
      tags,
      summary: "Turns a running campaign's texts off or on (emails go on either way)",
      params,
      body: textSendingInputSchema,
      response: { 200: campaignDetailSchema, ...changeErrors },
    },
    handler: async (request) => service.setTextSending(requireSignedIn(request.ctx), request.params.id, request.body.enabled),
  });

  app.post('/api/campaigns/:id/finish', {
    config,
    schema: {
      tags,
      summary: 'Finishes a running campaign: recipients still waiting are not sent; the summary email goes out',
      params,
      response: { 200: campaignDetailSchema, ...changeErrors },
    },
    handler: async (request) => service.finishCampaignByHand(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/campaigns/:id/archive', {
    config,
    schema: {
      tags,
      summary: 'Archives a running (finishing it first) or finished campaign',
      params,
      response: { 200: campaignDetailSchema, ...changeErrors },
    },
    handler: async (request) => service.archiveCampaign(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/campaigns/:id/responses', {
    config,
    schema: {
      tags,
      summary: "A campaign's replies, opt-outs, link clicks and bookings, newest first (audited)",
      params,
      querystring: campaignResponsesQuerySchema,
      response: { 200: z.object({ totalRecords: z.number().int(), data: z.array(campaignResponseSchema) }), ...errors },
    },
    handler: async (request) => service.listCampaignResponses(requireSignedIn(request.ctx), request.params.id, request.query),
  });

  app.get('/api/patients/patientscontrollist', {
    config,
    schema: {
      tags,
      summary: "A campaign's frozen recipients in send order, with masked addresses and delivery (audited)",
      querystring: campaignRecipientsQuerySchema,
      response: { 200: z.object({ totalRecords: z.number().int(), data: z.array(campaignRecipientSchema) }), ...errors },
    },
    handler: async (request) => service.campaignRecipientList(requireSignedIn(request.ctx), request.query),
  });
}
