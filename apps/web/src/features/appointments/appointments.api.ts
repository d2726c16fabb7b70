import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  Appointment,
  AppointmentExportInput,
  AppointmentFilterInput,
  AppointmentPage,
  CreateAppointmentInput,
  DaySchedule,
} from '@pathwell/contracts/appointments';
import type { ManagedItemPage } from '@pathwell/contracts/managed-lists';
import type { Doctor } from '@pathwell/contracts/users';
import { api, apiRequest } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { getDoctorId } from '../../lib/session-storage';

const BASE = '/api/patientappointments';

/** A patient as the top-bar search answers (`GET /api/patients/search`). */
export type PatientOption = { id: string; fullName: string; birthDate: string };

export const appointmentKeys = {
  all: ['appointments'] as const,
  pages: ['appointments', 'page'] as const,
  page: (filter: AppointmentFilterInput) => ['appointments', 'page', filter] as const,
  day: (date: string, doctorId: string | null) => ['appointments', 'day', date, doctorId] as const,
};

/** The top-bar doctor selector narrows every list (section 4); a Doctor's own scope is the server's job. */
const withSelectedDoctor = <T extends object>(filter: T): T => {
  const doctorId = getDoctorId();
  return doctorId ? { ...filter, doctorId } : filter;
};

const optionsOf = (path: string, query: Record<string, string> = {}) =>
  queryOptions({
    queryKey: ['appointments', 'options', path, query],
    queryFn: () =>
      api.get<ManagedItemPage>(path, {
        query: { ...query, active: 'true', sortBy: 'sortOrder', pageSize: 999 },
        background: true,
      }),
    select: (page) => page.data.map((item) => ({ value: item.id, label: item.name })),
    staleTime: 5 * 60_000,
  });

export const appointmentQueries = {
  page: (filter: AppointmentFilterInput) =>
    queryOptions({
      queryKey: appointmentKeys.page(filter),
      queryFn: () => api.post<AppointmentPage>(`${BASE}/filtered`, withSelectedDoctor(filter)),
      placeholderData: keepPreviousData,
    }),
  day: (date: string) =>
    queryOptions({
      queryKey: appointmentKeys.day(date, getDoctorId()),
      queryFn: () => api.get<DaySchedule>(`${BASE}/day`, { query: { date: date || undefined, doctorId: getDoctorId() } }),
    }),
  rooms: () => optionsOf('/api/rooms'),
  appointmentTypes: () => optionsOf('/api/customfields', { kind: 'appointmenttype' }),
  bodyLocations: () => optionsOf('/api/bodylocations'),
  doctors: () =>
    queryOptions({
      queryKey: ['appointments', 'options', 'doctors'],
      queryFn: () => api.get<Doctor[]>('/api/users/providers', { background: true }),
      select: (doctors) =>
        doctors.map((doctor) => ({ value: doctor.id, label: `${doctor.firstName} ${doctor.lastName}`.trim() })),
      staleTime: 5 * 60_000,
    }),
  patientSearch: (searchParam: string) =>
    queryOptions({
      queryKey: ['appointments', 'patient-search', searchParam],
      queryFn: ({ signal }) =>
        api.get<PatientOption[] | { data: PatientOption[] }>('/api/patients/search', {
          query: { searchParam },
          background: true,
          signal,
        }),
      // The search may answer a bare list or a page; the picker needs the list.
      select: (answer) => (Array.isArray(answer) ? answer : answer.data),
      staleTime: 30_000,
    }),
};

export const appointmentApi = {
  schedule: (input: CreateAppointmentInput) => api.post<Appointment>(`${BASE}/schedule`, input),
  checkIn: (id: string) => api.post<Appointment>(`${BASE}/checkin`, { id }),
  delayCheckIn: (id: string, minutes: number) => api.post<Appointment>(`${BASE}/delayedcheckin/${id}`, { minutes }),
  cancelCheckIn: (id: string) => api.post<Appointment>(`${BASE}/cancelcheckin/${id}`, {}),
  setStatus: (id: string, status: 3 | 4) =>
    apiRequest<Appointment>(`${BASE}/${id}/status`, { method: 'PATCH', body: { status } }),
  exportCsv: (input: AppointmentExportInput) =>
    downloadFile(`${BASE}/exporttocsv`, withSelectedDoctor(input), 'appointments.csv', { accept: 'text/csv, application/json' }),
};
