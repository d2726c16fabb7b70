import { queryOptions } from '@tanstack/react-query';
import type {
  SurveyFilterInput,
  SurveyFormOptions,
  SurveyItems,
  SurveyItemsRequestInput,
  SurveyReport,
} from '@pathwell/contracts/reports-survey';
import { api } from '../../../lib/api-client';

const BASE = '/api/reports/surveyreport';

// Reports read live data: nothing refetches behind the person's back; `run` tells two Applies apart.
const once = { staleTime: Infinity, retry: false, meta: { silent: true } } as const;

export const surveyQueries = {
  report: (filter: SurveyFilterInput, run: number) =>
    queryOptions({
      queryKey: ['reports', 'survey', filter, run] as const,
      queryFn: () => api.post<SurveyReport>(BASE, filter),
      ...once,
    }),
  items: (request: SurveyItemsRequestInput, run: number) =>
    queryOptions({
      queryKey: ['reports', 'survey', 'items', request, run] as const,
      queryFn: () => api.post<SurveyItems>(`${BASE}/items`, request),
      ...once,
    }),
  forms: () =>
    queryOptions({
      queryKey: ['reports', 'survey', 'forms'] as const,
      queryFn: () => api.get<SurveyFormOptions>(`${BASE}/forms`),
      staleTime: 5 * 60_000,
    }),
};
