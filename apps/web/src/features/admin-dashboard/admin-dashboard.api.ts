import { queryOptions } from '@tanstack/react-query';
import type { AdminDashboard } from '@pathwell/contracts/admin-dashboard';
import { api } from '../../lib/api-client';

export const adminDashboardQueries = {
  summary: () =>
    queryOptions({
      queryKey: ['admin-dashboard'],
      queryFn: () => api.get<AdminDashboard>('/api/admin/dashboard'),
    }),
};
