import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  DuplicateCheck,
  DuplicateMatch,
  PatientFilterInput,
  PatientPage,
  PatientPayloadInput,
  PatientSearchResult,
  PatientView,
} from '@pathwell/contracts/patients';
import { api, apiRequest } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';

const patientUrl = (id: string) => `/api/patients/${encodeURIComponent(id)}`;
/** Lists and reads accept a parent user's all-clinics view; changes need one clinic. */
const read = { allClinics: true } as const;

export const patientKeys = {
  all: ['patients'] as const,
  list: (filter: PatientFilterInput) => ['patients', 'list', filter] as const,
  detail: (id: string) => ['patients', 'detail', id] as const,
  search: (term: string, doctorId: string | null) => ['patients', 'search', term, doctorId] as const,
};

export const patientQueries = {
  page: (filter: PatientFilterInput) =>
    queryOptions({
      queryKey: patientKeys.list(filter),
      queryFn: () => api.post<PatientPage>('/api/patients/filtered', filter, read),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: patientKeys.detail(id),
      queryFn: () => api.get<PatientView>(patientUrl(id), read),
      retry: false,
    }),
  search: (term: string, doctorId: string | null) =>
    queryOptions({
      queryKey: patientKeys.search(term, doctorId),
      queryFn: ({ signal }) =>
        apiRequest<PatientSearchResult[]>('/api/patients/search', {
          query: { searchParam: term, doctorId: doctorId ?? undefined },
          background: true,
          signal,
          ...read,
        }),
      staleTime: 30_000,
    }),
};

export const patientApi = {
  create: (input: PatientPayloadInput) => api.post<PatientView>('/api/patients/create', input),
  update: (id: string, input: PatientPayloadInput) => api.put<PatientView>(patientUrl(id), input),
  remove: (id: string) => apiRequest<void>(patientUrl(id), { method: 'DELETE' }),
  checkDuplicates: (input: DuplicateCheck) => api.post<DuplicateMatch[]>('/api/patients/checkifpatientalreadyexists', input),
  setActive: (id: string, isActive: boolean) =>
    api.post<PatientView>(`/api/patients/updateactiveinactive/${encodeURIComponent(id)}`, { isActive }),
  archive: (id: string, reason: string) =>
    apiRequest<PatientView>(`${patientUrl(id)}/archive`, { method: 'POST', query: { reason }, body: {} }),
  reopenAccount: (id: string) => api.post<PatientView>(`/api/patients/reopenaccount/${encodeURIComponent(id)}`, {}),
  unarchive: (id: string) => api.post<PatientView>(`/api/patients/unarchive/${encodeURIComponent(id)}`, {}),
  closeAccount: (id: string) => api.post<PatientView>('/api/patients/closeaccount', { id }),
  exportCsv: (filter: PatientFilterInput) => downloadFile('/api/patients/exporttocsv', filter, 'patients.csv', read),
  exportXlsx: (filter: PatientFilterInput) => downloadFile('/api/patients/exporttoxlsx', filter, 'patients.xlsx', read),
};
