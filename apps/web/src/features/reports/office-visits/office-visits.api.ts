import { queryOptions } from '@tanstack/react-query';
import type { OfficeVisitsFilterInput, OfficeVisitsReport } from '@pathwell/contracts/reports-visits';
import { api } from '../../../lib/api-client';

export const OFFICE_VISITS = '/api/reports/officevisits';

export const officeVisitsQueries = {
  report: (filter: OfficeVisitsFilterInput, run: number) =>
    queryOptions({
      queryKey: ['reports', 'officeVisits', filter, run] as const,
      queryFn: () => api.post<OfficeVisitsReport>(OFFICE_VISITS, filter),
      staleTime: Infinity,
      retry: false,
      meta: { silent: true },
    }),
};
