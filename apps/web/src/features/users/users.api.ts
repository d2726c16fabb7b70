import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CreateUser, SystemUserDetail, UpdateUser, UserFilter, UserPage } from '@pathwell/contracts/user-admin';
import type { Clinic, UserProfile } from '@pathwell/contracts/users';
import { api, apiRequest } from '../../lib/api-client';

const userUrl = (id: string) => `/api/users/${encodeURIComponent(id)}`;

export const userKeys = {
  all: ['system-users'] as const,
  list: (filter: UserFilter) => ['system-users', 'list', filter] as const,
  detail: (id: string) => ['system-users', 'detail', id] as const,
};

export const userQueries = {
  // The System Users list accepts a parent user's all-clinics view: it then spans every clinic.
  page: (filter: UserFilter) =>
    queryOptions({
      queryKey: userKeys.list(filter),
      queryFn: () => api.post<UserPage>('/api/users/fetchAll', filter, { allClinics: true }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: userKeys.detail(id),
      queryFn: () => api.get<SystemUserDetail>(`${userUrl(id)}/details`, { allClinics: true }),
    }),
  /** Clinics the signed-in user works in: the choices for a parent user's memberships. */
  clinicOptions: () =>
    queryOptions({
      queryKey: ['system-users', 'clinic-options'],
      queryFn: () => api.get<Clinic[]>('/api/parent/clinics', { allClinics: true, background: true }),
      staleTime: 5 * 60_000,
    }),
  /** The public face of a user for /users/profile/{id}. */
  profile: (id: string) =>
    queryOptions({
      queryKey: ['system-users', 'profile', id],
      queryFn: () => api.get<UserProfile>(userUrl(id)),
      retry: false,
    }),
};

const manage = { allClinics: true } as const;

export const userApi = {
  register: (input: CreateUser) => api.post<SystemUserDetail>('/api/users/register', input, manage),
  update: (id: string, input: UpdateUser) => api.put<SystemUserDetail & { isSuccess: boolean }>(userUrl(id), input, manage),
  remove: (id: string) => apiRequest<void>(userUrl(id), { method: 'DELETE', ...manage }),
  resendWelcome: (id: string, role: string) =>
    api.post<{ message: string }>('/api/users/sendwelcomeemail', { id, role, originUrl: window.location.origin }, manage),
  setPin: (id: string, pin: string) => api.put<SystemUserDetail>(`${userUrl(id)}/pin`, { pin }, manage),
  setActive: (id: string, isActive: boolean) => api.put<SystemUserDetail>(`${userUrl(id)}/active`, { isActive }, manage),
};
