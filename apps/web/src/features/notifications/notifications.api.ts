import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationList, NotificationPage } from '@pathwell/contracts/messaging';
import { api } from '../../lib/api-client';

export const notificationKeys = { all: ['notifications'] as const };

export const notificationQueries = {
  latest: () =>
    queryOptions({
      queryKey: [...notificationKeys.all, 'latest'],
      // A shell call: it fails silently and never raises the loading overlay (specification section 8).
      queryFn: () => api.get<NotificationList>('/api/notifications', { background: true, allClinics: true }),
      staleTime: Infinity,
      meta: { silent: true },
    }),
  page: (pageNumber: number, pageSize: number) =>
    queryOptions({
      queryKey: [...notificationKeys.all, 'page', pageNumber, pageSize],
      queryFn: () => api.get<NotificationPage>('/api/notifications/paged', { query: { pageNumber, pageSize }, allClinics: true }),
      placeholderData: keepPreviousData,
    }),
};

type Marked = { marked: number };

export function useNotificationMarks() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const seen = useMutation({
    mutationFn: (ids: string[]) => api.post<Marked>('/api/notifications/seen', { ids }, { background: true, allClinics: true }),
    onSuccess: refresh,
  });
  const clearAll = useMutation({
    mutationFn: () => api.post<Marked>('/api/notifications/clearall', {}, { allClinics: true }),
    onSuccess: refresh,
  });
  const notified = useMutation({
    mutationFn: (ids: string[]) =>
      api.post<Marked>('/api/notifications/notified', { ids }, { background: true, allClinics: true }),
    onSuccess: refresh,
  });
  return { seen, clearAll, notified };
}
