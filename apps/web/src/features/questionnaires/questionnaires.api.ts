import { queryOptions } from '@tanstack/react-query';
import type { CustomFormPage } from '@pathwell/contracts/custom-forms';
import type {
  AssignedPro,
  InstrumentAvailability,
  InstrumentSummary,
  PatientFormResponses,
  UnfilledForm,
} from '@pathwell/contracts/form-responses';
import type { CreatePatientLink, CreatedPatientLink, FormResponseDetail, PatientLink } from '@pathwell/contracts/patient-links';
import { api, apiRequest } from '../../lib/api-client';

const enc = encodeURIComponent;

/** Section 2: outcome forms read at /formresponse/result/{id}, custom forms at /customformresponse/view/{id}. */
export const responsePath = (response: { id: string; kind: 'instrument' | 'custom' }) =>
  response.kind === 'custom' ? `/customformresponse/view/${response.id}` : `/formresponse/result/${response.id}`;

export const questionnaireKeys = {
  response: (id: string) => ['form-response', id] as const,
  patientResponses: (patientId: string) => ['patient-form-responses', patientId] as const,
  patientLinks: (patientId: string) => ['patient-links', patientId] as const,
  customForms: ['custom-forms', 'choices'] as const,
  assignedPros: (appointmentId: string) => ['assigned-pros', appointmentId] as const,
  unfilled: (appointmentId: string) => ['unfilled-forms', appointmentId] as const,
  instruments: ['instruments'] as const,
  availability: ['instruments', 'availability'] as const,
};

export const questionnaireQueries = {
  response: (id: string) =>
    queryOptions({
      queryKey: questionnaireKeys.response(id),
      queryFn: () => api.get<FormResponseDetail>(`/api/formresponses/${enc(id)}`),
      // Reading a response is logged; no silent refetching on focus.
      refetchOnWindowFocus: false,
      retry: false,
    }),
  patientResponses: (patientId: string) =>
    queryOptions({
      queryKey: questionnaireKeys.patientResponses(patientId),
      queryFn: () => api.get<PatientFormResponses>(`/api/patients/${enc(patientId)}/formresponses`),
      refetchOnWindowFocus: false,
      retry: false,
    }),
  patientLinks: (patientId: string) =>
    queryOptions({
      queryKey: questionnaireKeys.patientLinks(patientId),
      queryFn: () => api.get<PatientLink[]>('/api/patient-links', { query: { patientId } }),
      retry: false,
    }),
  customForms: () =>
    queryOptions({
      queryKey: questionnaireKeys.customForms,
      // The list route pages at most 100; a clinic has far fewer forms in use.
      queryFn: () => api.get<CustomFormPage>('/api/customforms', { query: { pageSize: 100 } }),
      retry: false,
    }),
  assignedPros: (appointmentId: string) =>
    queryOptions({
      queryKey: questionnaireKeys.assignedPros(appointmentId),
      queryFn: () => api.get<AssignedPro>('/api/patientappointments/assigned-pro', { query: { appointmentId } }),
      retry: false,
    }),
  unfilled: (appointmentId: string) =>
    queryOptions({
      queryKey: questionnaireKeys.unfilled(appointmentId),
      queryFn: () => api.get<UnfilledForm[]>(`/api/patientappointments/getunfilledforms/${enc(appointmentId)}`),
      retry: false,
    }),
  instruments: () =>
    queryOptions({
      queryKey: questionnaireKeys.instruments,
      queryFn: async () => (await api.get<{ data: InstrumentSummary[] }>('/api/instruments')).data,
      retry: false,
    }),
  availability: () =>
    queryOptions({
      queryKey: questionnaireKeys.availability,
      queryFn: async () => (await api.get<{ data: InstrumentAvailability[] }>('/api/instruments/availability')).data,
      retry: false,
    }),
};

export const questionnaireApi = {
  createLink: (input: CreatePatientLink) => api.post<CreatedPatientLink>('/api/patient-links', input),
  revokeLink: (id: string) => apiRequest<void>(`/api/patient-links/${enc(id)}`, { method: 'DELETE' }),
  saveAssignedPro: (appointmentId: string, formCodes: number[]) =>
    api.put<AssignedPro>('/api/patientappointments/assigned-pro', { appointmentId, formCodes }),
  importWording: (formCode: number, definition: unknown) => api.put<unknown>(`/api/instruments/${formCode}/wording`, definition),
  removeWording: (formCode: number) => apiRequest<void>(`/api/instruments/${formCode}/wording`, { method: 'DELETE' }),
};
