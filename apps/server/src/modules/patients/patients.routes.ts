import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  activeInactiveSchema,
  archiveQuerySchema,
  closeAccountSchema,
  duplicateCheckSchema,
  duplicateMatchSchema,
  optionalMessagesSchema,
  patientFilterSchema,
  patientPageSchema,
  patientPagedQuerySchema,
  patientPayloadSchema,
  patientSearchQuerySchema,
  patientSearchResultSchema,
  patientViewSchema,
} from '@pathwell/contracts/patients';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as patients from './patients.service';
import * as patientList from './patient-list.service';
import * as patientSearch from './patient-search.service';
import { recordOptionalMessages } from './optional-messages.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const params = z.object({ id: idSchema });
const csvResponse = z.string().describe('CSV file, UTF-8 with byte-order mark');

/** Reads follow the side-menu rule of the patient list (all four roles); lists accept the all-clinics view. */
const listRead = { menuPath: '/patients/list', allClinics: true };
const writers: readonly Role[] = ['SystemManager', 'Admin', 'Doctor', 'Staff'];
const write = { roles: writers };
const remove = { roles: ['SystemManager', 'Admin'] as readonly Role[] };
/** The patient's own choices are recorded by the clinic's people, not by platform operators (decision 0065). */
const clinicPeople = { roles: ['Admin', 'Doctor', 'Staff'] as readonly Role[] };

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function sendFile(reply: FastifyReply, file: patientList.ExportFile) {
  return reply
    .header('Content-Type', file.fileName.endsWith('.xlsx') ? XLSX_TYPE : 'text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', file.fileName))
    .header('Cache-Control', 'no-store')
    .send(file.content);
}

/** Patients of specification section 7 (relative to patients/); rules in docs/decisions/0012-patients.md. */
export async function patientRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Patients'];

  app.post('/api/patients/filtered', {
    config: listRead,
    schema: {
      tags,
      summary: 'Patients of the clinic, filtered, sorted and paged (default Active, CreationStamp, 15 per page)',
      body: patientFilterSchema,
      response: { 200: patientPageSchema, ...errors },
    },
    handler: async (request) => patientList.filterPatients(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/patients/paged', {
    config: listRead,
    schema: {
      tags,
      summary: 'Active patients, newest first, one page',
      querystring: patientPagedQuerySchema,
      response: { 200: patientPageSchema, ...errors },
    },
    handler: async (request) =>
      patientList.filterPatients(requireSignedIn(request.ctx), patientFilterSchema.parse({ paginationFilter: request.query })),
  });

  app.get('/api/patients/search', {
    config: listRead,
    schema: {
      tags,
      summary: 'Top-bar search (3+ characters, any word order, accent-insensitive; limit 300, offset 0)',
      querystring: patientSearchQuerySchema,
      response: { 200: z.array(patientSearchResultSchema), ...errors },
    },
    handler: async (request) => patientSearch.searchPatients(requireSignedIn(request.ctx), request.query),
  });

  app.post('/api/patients/exporttocsv', {
    config: listRead,
    schema: {
      tags,
      summary: 'The filtered list as CSV (UTF-8 with byte-order mark), every page',
      body: patientFilterSchema,
      response: { 200: csvResponse, ...errors },
    },
    handler: async (request, reply) =>
      sendFile(reply, await patientList.exportPatientsCsv(requireSignedIn(request.ctx), request.body)),
  });

  app.post('/api/patients/exporttoxlsx', {
    config: listRead,
    schema: {
      tags,
      summary: 'The filtered list as an Excel workbook (XLSX), every page',
      body: patientFilterSchema,
      response: { 200: z.any().describe('XLSX file'), ...errors },
    },
    handler: async (request, reply) =>
      sendFile(reply, await patientList.exportPatientsXlsx(requireSignedIn(request.ctx), request.body)),
  });

  app.post('/api/patients/checkifpatientalreadyexists', {
    config: write,
    schema: {
      tags,
      summary: 'Probable duplicates: same last name and date of birth, or same email',
      body: duplicateCheckSchema,
      response: { 200: z.array(duplicateMatchSchema), ...errors },
    },
    handler: async (request) => patientSearch.findDuplicates(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/patients/create', {
    config: write,
    schema: {
      tags,
      summary: 'Create a patient',
      body: patientPayloadSchema,
      response: { 201: patientViewSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await patients.createPatient(requireSignedIn(request.ctx), request.body)),
  });

  app.post('/api/patients/closeaccount', {
    config: write,
    schema: {
      tags,
      summary: "Close a patient's account",
      body: closeAccountSchema,
      response: { 200: patientViewSchema, ...errors },
    },
    handler: async (request) => patients.closeAccount(requireSignedIn(request.ctx), request.body.id),
  });

  app.post('/api/patients/updateactiveinactive/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Set a patient active or inactive',
      params,
      body: activeInactiveSchema,
      response: { 200: patientViewSchema, ...errors },
    },
    handler: async (request) => patients.setActive(requireSignedIn(request.ctx), request.params.id, request.body.isActive),
  });

  app.post('/api/patients/:id/archive', {
    config: write,
    schema: {
      tags,
      summary: 'Archive a patient with a reason (spec: {id}/{action}?reason)',
      params,
      querystring: archiveQuerySchema,
      response: { 200: patientViewSchema, ...errors },
    },
    handler: async (request) => patients.archivePatient(requireSignedIn(request.ctx), request.params.id, request.query.reason),
  });

  app.post('/api/patients/unarchive/:id', {
    config: write,
    schema: { tags, summary: 'Unarchive a patient', params, response: { 200: patientViewSchema, ...errors } },
    handler: async (request) => patients.unarchivePatient(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/patients/reopenaccount/:id', {
    config: write,
    schema: {
      tags,
      summary: "Reopen a closed account (the patient's email and text switches stay as they are)",
      params,
      response: { 200: patientViewSchema, ...errors },
    },
    handler: async (request) => patients.reopenAccount(requireSignedIn(request.ctx), request.params.id),
  });

  app.get('/api/patients/:id', {
    config: listRead,
    schema: { tags, summary: 'One patient with phone numbers', params, response: { 200: patientViewSchema, ...errors } },
    handler: async (request) => patients.getPatient(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/patients/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Update a patient (phone numbers are replaced by the list sent)',
      params,
      body: patientPayloadSchema,
      response: { 200: patientViewSchema, ...errors },
    },
    handler: async (request) => patients.updatePatient(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.put('/api/patients/:id/optionalmessages', {
    config: clinicPeople,
    schema: {
      tags,
      summary:
        "Record the patient's choice of optional messages (campaigns) by email and by text, as the patient told the clinic",
      params,
      body: optionalMessagesSchema,
      response: { 200: optionalMessagesSchema, ...errors },
    },
    handler: async (request) => recordOptionalMessages(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/patients/:id', {
    config: remove,
    schema: {
      tags,
      summary: 'Delete a patient (soft; Admin and System Manager)',
      params,
      response: { 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      await patients.deletePatient(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
