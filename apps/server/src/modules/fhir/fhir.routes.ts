import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  FHIR_CONTENT_TYPE,
  fhirObservationBundleSchema,
  fhirObservationQuerySchema,
  fhirQuestionnaireParamsSchema,
  fhirQuestionnaireResponseSchema,
  fhirQuestionnaireSchema,
  fhirResponseParamsSchema,
} from '@pathwell/contracts/form-responses';
import { requireSignedIn } from '../../context';
import * as fhir from './fhir.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * FHIR R4 read-only export for signed-in staff of the clinic (any role; a Doctor only for their own
 * patients' responses). Errors keep Pathwell's own `{ error, code }` body rather than an OperationOutcome.
 */
export async function fhirRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['FHIR'];

  app.get('/api/fhir/Questionnaire/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'An outcome instrument (formCode 1..15) or a custom form version as a FHIR R4 Questionnaire',
      params: fhirQuestionnaireParamsSchema,
      response: { 200: fhirQuestionnaireSchema, ...errors },
    },
    handler: async (request, reply) => {
      const resource = await fhir.questionnaire(requireSignedIn(request.ctx), request.params.id);
      return reply.type(FHIR_CONTENT_TYPE).send(resource);
    },
  });

  app.get('/api/fhir/QuestionnaireResponse/:id', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'A form response as a FHIR R4 QuestionnaireResponse',
      params: fhirResponseParamsSchema,
      response: { 200: fhirQuestionnaireResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const resource = await fhir.questionnaireResponse(requireSignedIn(request.ctx), request.params.id);
      return reply.type(FHIR_CONTENT_TYPE).send(resource);
    },
  });

  app.get('/api/fhir/Observation', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "A response's scores as FHIR R4 Observations (search by derived-from=QuestionnaireResponse/{id})",
      querystring: fhirObservationQuerySchema,
      response: { 200: fhirObservationBundleSchema, ...errors },
    },
    handler: async (request, reply) => {
      const bundle = await fhir.observationsDerivedFrom(requireSignedIn(request.ctx), request.query['derived-from']);
      return reply.type(FHIR_CONTENT_TYPE).send(bundle);
    },
  });
}
