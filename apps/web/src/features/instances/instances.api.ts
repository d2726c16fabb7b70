import { queryOptions } from '@tanstack/react-query';
import type { CreateInstance, Instance, Organisation, SaveOrganisation, UpdateInstance } from '@pathwell/contracts/instances';
import { api, apiRequest } from '../../lib/api-client';

const instanceUrl = (id: string) => `/api/instances/${encodeURIComponent(id)}`;
const clinicUrl = (id: string) => `/api/clinics/${encodeURIComponent(id)}`;

export const instanceKeys = {
  instances: ['instances'] as const,
  clinics: ['clinics'] as const,
};

export const instanceQueries = {
  list: () =>
    queryOptions({ queryKey: [...instanceKeys.instances, 'list'], queryFn: () => api.get<Instance[]>('/api/instances') }),
  detail: (id: string) =>
    queryOptions({ queryKey: [...instanceKeys.instances, 'detail', id], queryFn: () => api.get<Instance>(instanceUrl(id)) }),
};

export const clinicQueries = {
  list: () =>
    queryOptions({
      queryKey: [...instanceKeys.clinics, 'list'],
      queryFn: () => api.get<Organisation[]>('/api/clinics', { allClinics: true }),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...instanceKeys.clinics, 'detail', id],
      queryFn: () => api.get<Organisation>(clinicUrl(id), { allClinics: true }),
    }),
};

export const instanceApi = {
  create: (input: CreateInstance) => api.post<Instance>('/api/instances', input),
  update: (id: string, input: UpdateInstance) => api.put<Instance>(instanceUrl(id), input),
  remove: (id: string) => apiRequest<void>(instanceUrl(id), { method: 'DELETE' }),
};

export const clinicApi = {
  create: (input: SaveOrganisation) => api.post<Organisation>('/api/clinics', input, { allClinics: true }),
  update: (id: string, input: SaveOrganisation) => api.put<Organisation>(clinicUrl(id), input, { allClinics: true }),
  remove: (id: string) => apiRequest<void>(clinicUrl(id), { method: 'DELETE', allClinics: true }),
};
