import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  Appointment,
  AppointmentExportInput,
  AppointmentFilterInput,
  AppointmentPage,
  CreateAppointmentInput,
  DaySchedule,
} from '@pathwell/contracts/appointments';
import type { ErrorBody } from '@pathwell/contracts/errors';
import type { ManagedItemPage } from '@pathwell/contracts/managed-lists';
import type { Doctor } from '@pathwell/contracts/users';
import { api, ApiError, apiRequest } from '../../lib/api-client';
import { ALL_CLINICS, getClinicId, getDoctorId, getToken } from '../../lib/session-storage';

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

function fileNameOf(response: Response, fallback: string) {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? fallback;
}

function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The JSON api client cannot carry a file, so the CSV call sends the token and clinic header itself. */
async function downloadCsv(path: string, body: unknown, fallbackName: string): Promise<string> {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'text/csv, application/json' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const clinicId = getClinicId();
  if (clinicId && clinicId !== ALL_CLINICS) headers.set('ClinicId', clinicId);
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(null, null, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const errorBody = (await response.json().catch(() => null)) as ErrorBody | null;
    throw new ApiError(response.status, errorBody, errorBody?.error ?? (response.statusText || `HTTP ${response.status}`));
  }
  const fileName = fileNameOf(response, fallbackName);
  saveFile(await response.blob(), fileName);
  return fileName;
}

export const appointmentApi = {
  schedule: (input: CreateAppointmentInput) => api.post<Appointment>(`${BASE}/schedule`, input),
  checkIn: (id: string) => api.post<Appointment>(`${BASE}/checkin`, { id }),
  delayCheckIn: (id: string, minutes: number) => api.post<Appointment>(`${BASE}/delayedcheckin/${id}`, { minutes }),
  cancelCheckIn: (id: string) => api.post<Appointment>(`${BASE}/cancelcheckin/${id}`, {}),
  setStatus: (id: string, status: 3 | 4) =>
    apiRequest<Appointment>(`${BASE}/${id}/status`, { method: 'PATCH', body: { status } }),
  exportCsv: (input: AppointmentExportInput) => downloadCsv(`${BASE}/exporttocsv`, withSelectedDoctor(input), 'appointments.csv'),
};
