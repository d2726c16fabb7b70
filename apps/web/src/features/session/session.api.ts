import { queryOptions } from '@tanstack/react-query';
import type { SessionContext } from '@pathwell/contracts/session';
import type { Clinic, Doctor } from '@pathwell/contracts/users';
import { api } from '../../lib/api-client';

export const sessionQueries = {
  context: () =>
    queryOptions({
      queryKey: ['session'],
      queryFn: () => api.get<SessionContext>('/api/session', { allClinics: true }),
      staleTime: 5 * 60_000,
    }),
  // Shell lists fail silently (section 8), hence `meta.silent`.
  parentClinics: () =>
    queryOptions({
      queryKey: ['session', 'parent-clinics'],
      queryFn: () => api.get<Clinic[]>('/api/parent/clinics', { allClinics: true, background: true }),
      staleTime: 5 * 60_000,
      meta: { silent: true },
    }),
  providers: () =>
    queryOptions({
      queryKey: ['session', 'providers'],
      queryFn: () => api.get<Doctor[]>('/api/users/providers', { background: true }),
      staleTime: 5 * 60_000,
      meta: { silent: true },
    }),
};

export const sessionApi = {
  keepAlive: () => api.post<void>('/api/session/keepalive', {}, { background: true, allClinics: true }),
};
