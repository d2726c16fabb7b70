import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  medicineUseSchema,
  mmeRequestSchema,
  mmeResultSchema,
  patientMedicineInputSchema,
  patientMedicineSchema,
} from '@pathwell/contracts/mme';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as service from './patient-medicines.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
// Every staff role reads and writes a patient's medicines; a Doctor only for their own patients.
const staffRoles: readonly Role[] = ['Admin', 'Doctor', 'Staff', 'SystemManager'];
const staff = { roles: staffRoles };
const patientParams = z.object({ id: idSchema });
const rowParams = z.object({ id: idSchema, medicineRowId: idSchema });

/** Current medicines and total daily MME (decision 0039). */
export async function patientMedicineRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Medicines'];

  app.get('/api/patients/:id/medicines', {
    config: staff,
    schema: {
      tags,
      summary: "The patient's current medicines, with each one's daily MME",
      params: patientParams,
      response: { 200: z.array(patientMedicineSchema), ...errors },
    },
    handler: async (request) => service.listPatientMedicines(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/patients/:id/medicines', {
    config: staff,
    schema: {
      tags,
      summary: "Add a medicine from the clinic list to the patient's current medicines",
      params: patientParams,
      body: patientMedicineInputSchema,
      response: { 201: patientMedicineSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.addPatientMedicine(requireSignedIn(request.ctx), request.params.id, request.body)),
  });

  app.put('/api/patients/:id/medicines/:medicineRowId', {
    config: staff,
    schema: {
      tags,
      summary: 'Change how a current medicine is taken',
      params: rowParams,
      body: medicineUseSchema,
      response: { 200: patientMedicineSchema, ...errors },
    },
    handler: async (request) =>
      service.updatePatientMedicine(requireSignedIn(request.ctx), request.params.id, request.params.medicineRowId, request.body),
  });

  app.post('/api/patients/:id/medicines/:medicineRowId/stop', {
    config: staff,
    schema: {
      tags,
      summary: 'Stop a medicine (kept for history)',
      params: rowParams,
      response: { 200: patientMedicineSchema, ...errors },
    },
    handler: async (request) =>
      service.stopPatientMedicine(requireSignedIn(request.ctx), request.params.id, request.params.medicineRowId),
  });

  app.post('/api/patients/mme', {
    config: staff,
    schema: {
      tags,
      summary: 'Total daily morphine milligram equivalents of the current medicines, or of a what-if list (not saved)',
      body: mmeRequestSchema,
      response: { 200: mmeResultSchema, ...errors },
    },
    handler: async (request) => service.calculatePatientMme(requireSignedIn(request.ctx), request.body),
  });
}
