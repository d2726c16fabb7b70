import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { alias } from 'drizzle-orm/pg-core';
import type { TimelineAppointment } from '@pathwell/contracts/patient-dashboard';
import { appointments, managedItems, users } from '../../db/schema';

// The appointment as both dashboards show it: one patient's timeline and the clinic's day.
export const appointmentType = alias(managedItems, 'appointment_type');
export const room = alias(managedItems, 'room');
export const doctor = alias(users, 'doctor');

export const personName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

export const appointmentColumns = {
  id: appointments.id,
  startsAt: appointments.startsAt,
  durationMinutes: appointments.durationMinutes,
  status: appointments.status,
  typeName: appointmentType.name,
  roomName: room.name,
  doctorId: doctor.id,
  doctorFirstName: doctor.firstName,
  doctorLastName: doctor.lastName,
  painScore: appointments.painScore,
  reason: appointments.reason,
};

type AppointmentRow = {
  id: string;
  startsAt: Date;
  durationMinutes: number;
  status: number;
  typeName: string | null;
  roomName: string | null;
  doctorId: string | null;
  doctorFirstName: string | null;
  doctorLastName: string | null;
  painScore: number | null;
  reason: 'new_patient' | 'follow_up' | null;
};

export const toTimeline = (row: AppointmentRow): TimelineAppointment => ({
  id: row.id,
  startsAt: row.startsAt.toISOString(),
  durationMinutes: row.durationMinutes,
  status: row.status as AppointmentStatusCode,
  typeName: row.typeName,
  roomName: row.roomName,
  doctor: row.doctorId ? { id: row.doctorId, name: personName(row.doctorFirstName, row.doctorLastName) } : null,
  painScore: row.painScore,
  reason: row.reason,
});
