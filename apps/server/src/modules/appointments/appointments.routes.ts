import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appointmentExportSchema,
  appointmentFilterSchema,
  appointmentIdParamsSchema,
  appointmentNoteSchema,
  appointmentPagedQuerySchema,
  appointmentPageSchema,
  appointmentSchema,
  appointmentStatusesSchema,
  appointmentStatusQuerySchema,
  checkInSchema,
  createAppointmentSchema,
  dayScheduleQuerySchema,
  dayScheduleSchema,
  delayedCheckInSchema,
  nextAppointmentQuerySchema,
  nextAppointmentSchema,
  setAppointmentStatusSchema,
  updateAppointmentSchema,
  updateScheduleSchema,
} from '@pathwell/contracts/appointments';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as service from './appointments.service';
import * as bookings from './appointment-bookings.service';
import * as statusChanges from './appointment-status-changes.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const withConflict = { ...errors, 409: errorBodySchema };
const csvResponse = z.string().describe('CSV file, UTF-8 with byte-order mark');
const BASE = '/api/patientappointments';

function sendCsv(reply: FastifyReply, file: service.CsvFile) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', file.fileName))
    .header('Cache-Control', 'no-store')
    .send(file.content);
}

/**
 * Appointments of section 7 (`patientappointments/`). Every signed-in role reads, books and checks
 * in (a Doctor only their own appointments, enforced in the service); deleting is for Admin, System
 * Manager and Staff. Status rules: docs/decisions/0013-appointment-status-rules.md.
 */
export async function appointmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Appointments'];

  app.get(`${BASE}/all`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'All appointments of the clinic, newest first, paged',
      querystring: appointmentPagedQuerySchema,
      response: { 200: appointmentPageSchema, ...errors },
    },
    handler: async (request) => service.listAllAppointments(requireSignedIn(request.ctx), request.query),
  });

  app.post(`${BASE}/filtered`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Appointment list filter of section 3 (date presets in clinic time), paged',
      body: appointmentFilterSchema,
      response: { 200: appointmentPageSchema, ...errors },
    },
    handler: async (request) => service.listAppointments(requireSignedIn(request.ctx), request.body),
  });

  app.get(`${BASE}/day`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One clinic day of appointments (default today), for the staff schedule',
      querystring: dayScheduleQuerySchema,
      response: { 200: dayScheduleSchema, ...errors },
    },
    handler: async (request) => service.daySchedule(requireSignedIn(request.ctx), request.query),
  });

  app.get(`${BASE}/info/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'One appointment',
      params: appointmentIdParamsSchema,
      response: { 200: appointmentSchema, ...errors },
    },
    handler: async (request) => service.getAppointment(requireSignedIn(request.ctx), request.params.id),
  });

  app.get(`${BASE}/next-appointment`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'The next upcoming appointment of a patient, or null',
      querystring: nextAppointmentQuerySchema,
      response: { 200: nextAppointmentSchema, ...errors },
    },
    handler: async (request) => ({
      appointment: await service.nextAppointment(requireSignedIn(request.ctx), request.query.patientId),
    }),
  });

  app.post(BASE, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Create an appointment (status Upcoming)',
      body: createAppointmentSchema,
      response: { 201: appointmentSchema, ...withConflict },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await bookings.createAppointment(requireSignedIn(request.ctx), request.body)),
  });

  app.put(`${BASE}/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Update an appointment',
      params: appointmentIdParamsSchema,
      body: updateAppointmentSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => bookings.updateAppointment(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete(`${BASE}/delete/:id`, {
    config: { roles: ['SystemManager', 'Admin', 'Staff'] },
    schema: {
      tags,
      summary: 'Delete an appointment (soft); a completed one is refused',
      params: appointmentIdParamsSchema,
      response: { 204: z.null(), ...withConflict },
    },
    handler: async (request, reply) => {
      await bookings.deleteAppointment(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${BASE}/schedule`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Book an appointment; 409 when the doctor or the room is taken',
      body: createAppointmentSchema,
      response: { 201: appointmentSchema, ...withConflict },
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(await bookings.createAppointment(requireSignedIn(request.ctx), request.body, 'Appointment Schedules')),
  });

  app.post(`${BASE}/updateschedule`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Move an upcoming appointment (time, doctor, room); 409 on overlap',
      body: updateScheduleSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => bookings.updateSchedule(requireSignedIn(request.ctx), request.body),
  });

  app.post(`${BASE}/checkin`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Check a patient in (Upcoming → Checking_In)',
      body: checkInSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => statusChanges.checkIn(requireSignedIn(request.ctx), request.body.id),
  });

  app.post(`${BASE}/delayedcheckin/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Delay the check-in of an upcoming appointment by some minutes',
      params: appointmentIdParamsSchema,
      body: delayedCheckInSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => statusChanges.delayCheckIn(requireSignedIn(request.ctx), request.params.id, request.body.minutes),
  });

  app.post(`${BASE}/cancelcheckin/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Cancel a check-in (Checking_In → Upcoming)',
      params: appointmentIdParamsSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => statusChanges.cancelCheckIn(requireSignedIn(request.ctx), request.params.id),
  });

  app.patch(`${BASE}/:id/status`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Mark an appointment Completed (from Checking_In) or No_Show (from Upcoming, after its start)',
      params: appointmentIdParamsSchema,
      body: setAppointmentStatusSchema,
      response: { 200: appointmentSchema, ...withConflict },
    },
    handler: async (request) => statusChanges.setStatus(requireSignedIn(request.ctx), request.params.id, request.body.status),
  });

  app.post(`${BASE}/saveappointmentnote/:id`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Save the note of an appointment',
      params: appointmentIdParamsSchema,
      body: appointmentNoteSchema,
      response: { 200: appointmentSchema, ...errors },
    },
    handler: async (request) => bookings.saveNote(requireSignedIn(request.ctx), request.params.id, request.body.notes),
  });

  app.post(`${BASE}/getappointmentstatus`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Current status of several appointments (unknown ids are left out)',
      body: appointmentStatusQuerySchema,
      response: { 200: appointmentStatusesSchema, ...errors },
    },
    handler: async (request) => service.getStatuses(requireSignedIn(request.ctx), request.body.ids),
  });

  app.post(`${BASE}/exporttocsv`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Filtered appointments as CSV (no paging)',
      body: appointmentExportSchema,
      response: { 200: csvResponse, ...errors },
    },
    handler: async (request, reply) =>
      sendCsv(reply, await service.exportAppointments(requireSignedIn(request.ctx), request.body, 'all')),
  });

  app.post(`${BASE}/exportnoshowappointments`, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: 'Filtered no-show appointments as CSV',
      body: appointmentExportSchema,
      response: { 200: csvResponse, ...errors },
    },
    handler: async (request, reply) =>
      sendCsv(reply, await service.exportAppointments(requireSignedIn(request.ctx), request.body, 'noShow')),
  });
}
