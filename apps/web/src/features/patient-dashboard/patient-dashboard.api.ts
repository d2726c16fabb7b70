import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClinicDashboard, PatientDashboard, PatientNote, PatientNoteInput } from '@pathwell/contracts/patient-dashboard';
import { api, apiRequest } from '../../lib/api-client';

const patientPath = (patientId: string) => `/api/patients/${encodeURIComponent(patientId)}`;

export const patientDashboardKeys = {
  patient: (patientId: string) => ['patient-dashboard', patientId] as const,
  clinic: (doctorId: string | null) => ['patients-dashboard', doctorId ?? 'all'] as const,
};

export const patientDashboardQueries = {
  patient: (patientId: string) =>
    queryOptions({
      queryKey: patientDashboardKeys.patient(patientId),
      queryFn: () => api.get<PatientDashboard>(`${patientPath(patientId)}/dashboard`),
      // Each load writes a Viewed entry in the activity log; no silent refetching on focus.
      refetchOnWindowFocus: false,
      retry: false,
    }),
  clinic: (doctorId: string | null) =>
    queryOptions({
      queryKey: patientDashboardKeys.clinic(doctorId),
      queryFn: () => api.get<ClinicDashboard>('/api/patients/dashboard', { query: { doctorId } }),
      refetchOnWindowFocus: false,
      retry: false,
    }),
};

export const patientNotesApi = {
  create: (patientId: string, input: PatientNoteInput) => api.post<PatientNote>(`${patientPath(patientId)}/notes`, input),
  update: (patientId: string, noteId: string, input: PatientNoteInput) =>
    api.put<PatientNote>(`${patientPath(patientId)}/notes/${encodeURIComponent(noteId)}`, input),
  remove: (patientId: string, noteId: string) =>
    apiRequest<void>(`${patientPath(patientId)}/notes/${encodeURIComponent(noteId)}`, { method: 'DELETE' }),
};

/**
 * Notes change in the cached dashboard rather than by reloading it: a reload would write another
 * Viewed entry for a patient nobody looked at again.
 */
export function updateCachedNotes(queryClient: QueryClient, patientId: string, change: (notes: PatientNote[]) => PatientNote[]) {
  queryClient.setQueryData<PatientDashboard>(patientDashboardKeys.patient(patientId), (current) =>
    current ? { ...current, notes: change(current.notes) } : current,
  );
}
