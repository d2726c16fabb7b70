import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  PerformanceFilter,
  PerformancePatients,
  PerformancePatientsRequest,
  PerformanceReport,
} from '@pathwell/contracts/reports-performance';
import { api } from '../../../lib/api-client';

const REPORT = '/api/reports/patientsperformancemeasure';

const performanceKeys = {
  all: ['reports', 'performance'] as const,
  /** `run` tells two presses of Apply apart, so the same filter runs again when asked. */
  report: (filter: PerformanceFilter, run: number) => ['reports', 'performance', 'report', filter, run] as const,
  patients: (request: PerformancePatientsRequest) => ['reports', 'performance', 'patients', request] as const,
};

// Reports read live data and each patient-level read is audited: no refetching behind the person's back.
export const performanceQueries = {
  report: (filter: PerformanceFilter, run: number) =>
    queryOptions({
      queryKey: performanceKeys.report(filter, run),
      queryFn: () => api.post<PerformanceReport>(REPORT, filter),
      staleTime: Infinity,
      retry: false,
      // The page shows its own error (with field errors next to the dates).
      meta: { silent: true },
    }),
  patients: (request: PerformancePatientsRequest) =>
    queryOptions({
      queryKey: performanceKeys.patients(request),
      queryFn: () => api.post<PerformancePatients>(`${REPORT}/patients`, request),
      staleTime: Infinity,
      retry: false,
      placeholderData: keepPreviousData,
      meta: { silent: true },
    }),
};
