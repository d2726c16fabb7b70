import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  bulkStudyGroupSchema,
  complianceSchema,
  interventionFormInfoSchema,
  interventionInputSchema,
  interventionSchema,
  patientStudyGroupSchema,
  patientStudyGroupsSchema,
  plannedProcedureSchema,
  plannedProcedureUpsertSchema,
  pumpRefillsDueQuerySchema,
  pumpRefillsDueSchema,
  recentCodeSchema,
  recentCodesQuerySchema,
  visitRecordInputSchema,
  visitRecordSchema,
} from '@pathwell/contracts/interventions';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as interventions from './interventions.service';
import * as visitRecords from './visit-records.service';
import * as planned from './planned-procedures.service';
import * as studyGroups from './study-groups.service';
import * as pumpRefills from './pump-refills.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const params = z.object({ id: idSchema });
/** The care team records and reads clinical work; a Doctor only for their own patients (decision 0038). */
const careTeam: readonly Role[] = ['SystemManager', 'Admin', 'Doctor', 'Staff'];
const care = { roles: careTeam };
/** Who refills pumps and books the refills (decision 0062); System Managers run the platform instead. */
const refillBookers = { roles: ['Admin', 'Doctor', 'Staff'] as readonly Role[] };
/** Removing a clinical record is for those who answer for the clinic's records, and the Doctor. */
const remove = { roles: ['SystemManager', 'Admin', 'Doctor'] as readonly Role[] };

/** Issue #13 §1 and §5: visit records, interventions and pump visits, planned procedures, cohorts. */
export async function interventionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Procedures and interventions'];

  app.get('/api/patientappointments/:id/visitrecord', {
    config: care,
    schema: {
      tags,
      summary: 'The visit record of one appointment: actions taken, codes, visit note',
      params,
      response: { 200: visitRecordSchema, ...errors },
    },
    handler: async (request) => visitRecords.getVisitRecord(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/patientappointments/:id/visitrecord', {
    config: care,
    schema: {
      tags,
      summary: 'Save the visit record (replaces it whole)',
      params,
      body: visitRecordInputSchema,
      response: { 200: visitRecordSchema, ...errors },
    },
    handler: async (request) => visitRecords.saveVisitRecord(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.get('/api/appointmentcodes/recent', {
    config: care,
    schema: {
      tags,
      summary: "The clinic's recently used diagnosis (ICD-10-CM) or procedure (CPT/HCPCS) codes",
      querystring: recentCodesQuerySchema,
      response: { 200: z.array(recentCodeSchema), ...errors },
    },
    handler: async (request) => visitRecords.recentCodes(requireSignedIn(request.ctx), request.query.kind),
  });

  app.get('/api/patients/interventionforminfo/:id', {
    config: care,
    schema: {
      tags,
      summary: "The intervention form's selectors for a patient (id: the patient) in one call",
      params,
      response: { 200: interventionFormInfoSchema, ...errors },
    },
    handler: async (request) => interventions.interventionFormInfo(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/patients/:id/interventions', {
    config: care,
    schema: {
      tags,
      summary: "A patient's procedures, injections and pump visits",
      params,
      response: { 200: z.array(interventionSchema), ...errors },
    },
    handler: async (request) => interventions.patientInterventions(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/interventions', {
    config: care,
    schema: {
      tags,
      summary: 'Record a procedure, injection or pump visit',
      body: interventionInputSchema,
      response: { 201: interventionSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await interventions.createIntervention(requireSignedIn(request.ctx), request.body)),
  });

  app.get('/api/interventions/:id', {
    config: care,
    schema: { tags, summary: 'One procedure record', params, response: { 200: interventionSchema, ...errors } },
    handler: async (request) => interventions.getIntervention(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/interventions/:id', {
    config: care,
    schema: {
      tags,
      summary: 'Change a procedure record',
      params,
      body: interventionInputSchema,
      response: { 200: interventionSchema, ...errors },
    },
    handler: async (request) => interventions.updateIntervention(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/interventions/:id', {
    config: remove,
    schema: { tags, summary: 'Delete a procedure record (kept, marked deleted)', params, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await interventions.deleteIntervention(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/patients/:id/procedures', {
    config: care,
    schema: {
      tags,
      summary: "A patient's planned procedures with their compliance",
      params,
      response: { 200: z.array(plannedProcedureSchema), ...errors },
    },
    handler: async (request) => planned.patientPlannedProcedures(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/procedures/upsert', {
    config: care,
    schema: {
      tags,
      summary: 'Add a planned procedure, or change one (with its id)',
      body: plannedProcedureUpsertSchema,
      response: { 200: plannedProcedureSchema, ...errors },
    },
    handler: async (request) => planned.upsertPlannedProcedure(requireSignedIn(request.ctx), request.body),
  });

  app.put('/api/procedures/:id/compliance', {
    config: care,
    schema: {
      tags,
      summary: "Update a planned procedure's compliance (what the payer asks before authorising)",
      params,
      body: complianceSchema,
      response: { 200: plannedProcedureSchema, ...errors },
    },
    handler: async (request) => planned.updateCompliance(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.get('/api/patients/:id/studygroups', {
    config: care,
    schema: { tags, summary: "A patient's cohorts", params, response: { 200: z.array(patientStudyGroupSchema), ...errors } },
    handler: async (request) => studyGroups.getPatientStudyGroups(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/patients/:id/studygroups', {
    config: care,
    schema: {
      tags,
      summary: 'Patient study groups update: set the patient’s cohorts',
      params,
      body: patientStudyGroupsSchema,
      response: { 200: z.array(patientStudyGroupSchema), ...errors },
    },
    handler: async (request) =>
      studyGroups.setPatientStudyGroups(requireSignedIn(request.ctx), request.params.id, request.body.studyGroupIds),
  });

  app.post('/api/patients/studygroups/bulk', {
    config: care,
    schema: {
      tags,
      summary: 'Add or remove one cohort for several patients (patient list)',
      body: bulkStudyGroupSchema,
      response: { 200: z.object({ changed: z.number() }), ...errors },
    },
    handler: async (request) => studyGroups.bulkStudyGroup(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/pumprefills/due', {
    config: refillBookers,
    schema: {
      tags,
      summary: "Pain-pump refills coming due: each patient's latest next refill date, overdue or within N days",
      querystring: pumpRefillsDueQuerySchema,
      response: { 200: pumpRefillsDueSchema, ...errors },
    },
    handler: async (request) => pumpRefills.pumpRefillsDue(requireSignedIn(request.ctx), request.query),
  });
}
