import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptIntakeChangesSchema,
  allergyParamsSchema,
  intakeChangeSchema,
  intakeLinkParamsSchema,
  patientAllergySchema,
  reconciledIntakeSchema,
  reconcileIntakeSchema,
} from '@pathwell/contracts/intake-record';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { linkRouteErrors, staffRoles } from '../patient-contact/link-requests.service';
import { acceptIntakeChanges } from './intake-record.service';
import { listAllergies, reconcileIntake, removeAllergy } from './intake-reconcile.service';

const errors = linkRouteErrors;
// Every staff role edits a patient's record and medicines; a Doctor only for their own patients (404 otherwise).
const staff = { roles: staffRoles };

/** Staff take the intake's answers into the record (issue #24 §4, decision 0056). */
export async function intakeRecordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Intake'];

  app.post('/api/patients/:id/intake/:linkId/accept', {
    config: staff,
    schema: {
      tags,
      summary: "Take the ticked fields of the patient's paperwork into the record; answers the fields as they now stand",
      params: intakeLinkParamsSchema,
      body: acceptIntakeChangesSchema,
      response: { 200: z.array(intakeChangeSchema), ...errors },
    },
    handler: async (request) =>
      acceptIntakeChanges(requireSignedIn(request.ctx), request.params.id, request.params.linkId, request.body.fields),
  });

  app.post('/api/patients/:id/intake/:linkId/reconcile', {
    config: staff,
    schema: {
      tags,
      summary: "The intake's medications (mapped to the medicines list) and allergies into the record, in one step",
      params: intakeLinkParamsSchema,
      body: reconcileIntakeSchema,
      response: { 200: reconciledIntakeSchema, ...errors },
    },
    handler: async (request) =>
      reconcileIntake(requireSignedIn(request.ctx), request.params.id, request.params.linkId, request.body),
  });

  app.get('/api/patients/:id/allergies', {
    config: staff,
    schema: {
      tags,
      summary: "The patient's recorded allergies",
      params: z.object({ id: idSchema }),
      response: { 200: z.array(patientAllergySchema), ...errors },
    },
    handler: async (request) => listAllergies(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/patients/:id/allergies/:allergyId/remove', {
    config: staff,
    schema: {
      tags,
      summary: 'Take an allergy off the record (kept for history); answers the allergy removed',
      params: allergyParamsSchema,
      response: { 200: patientAllergySchema, ...errors },
    },
    handler: async (request) => removeAllergy(requireSignedIn(request.ctx), request.params.id, request.params.allergyId),
  });
}
