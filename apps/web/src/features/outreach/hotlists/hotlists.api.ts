import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import type {
  HotlistDashboard,
  HotlistDetail,
  HotlistEntriesQuery,
  HotlistInput,
  HotlistNext,
  HotlistOutcomeInput,
  HotlistQueue,
  HotlistSummary,
} from '@pathwell/contracts/hotlists';
import type { AudiencePreview, AudienceTemplate } from '@pathwell/contracts/outreach';
import { api, apiRequest } from '../../../lib/api-client';

const HOTLISTS = '/api/hotlists';
const id = (value: string) => encodeURIComponent(value);

export type EntryFilter = HotlistEntriesQuery['filter'];

export const hotlistKeys = {
  all: ['hotlists'] as const,
  dashboard: () => ['hotlists', 'dashboard'] as const,
  detail: (hotlistId: string, filter: EntryFilter, pageNumber: number) =>
    ['hotlists', 'detail', hotlistId, filter, pageNumber] as const,
  templates: () => ['hotlists', 'templates'] as const,
  preview: (templateId: string) => ['hotlists', 'preview', templateId] as const,
};

// Pages show their own loading and failure states, so the global error toast stays quiet.
const quiet = { meta: { silent: true }, retry: false } as const;

export const hotlistQueries = {
  dashboard: () =>
    queryOptions({
      queryKey: hotlistKeys.dashboard(),
      queryFn: () => api.get<HotlistDashboard>(HOTLISTS),
      ...quiet,
    }),
  /** The list's page of patients is audited on the server: it is read when asked, not in the background. */
  detail: (hotlistId: string, filter: EntryFilter, pageNumber: number) =>
    queryOptions({
      queryKey: hotlistKeys.detail(hotlistId, filter, pageNumber),
      queryFn: () =>
        api.get<HotlistDetail>(`${HOTLISTS}/${id(hotlistId)}`, { query: { filter, pageNumber, pageSize: PAGE_SIZE_DEFAULT } }),
      placeholderData: keepPreviousData,
      refetchOnWindowFocus: false,
      ...quiet,
    }),
  templates: () =>
    queryOptions({
      queryKey: hotlistKeys.templates(),
      queryFn: () => api.get<{ data: AudienceTemplate[] }>('/api/audiencetemplates', { query: { kind: 'hotlist' } }),
      ...quiet,
    }),
  preview: (templateId: string) =>
    queryOptions({
      queryKey: hotlistKeys.preview(templateId),
      queryFn: () => api.post<AudiencePreview>('/api/patients/patientscontrollistfortemplate', { templateId }),
      staleTime: 30_000,
      ...quiet,
    }),
};

export const hotlistApi = {
  create: (input: HotlistInput) => api.post<HotlistSummary>(HOTLISTS, input),
  next: (hotlistId: string) => api.post<HotlistNext>(`${HOTLISTS}/${id(hotlistId)}/next`),
  outcome: (hotlistId: string, entryId: string, input: HotlistOutcomeInput) =>
    api.post<HotlistQueue>(`${HOTLISTS}/${id(hotlistId)}/entries/${id(entryId)}/outcome`, input),
  release: (hotlistId: string, entryId: string) => api.post<void>(`${HOTLISTS}/${id(hotlistId)}/entries/${id(entryId)}/release`),
  finish: (hotlistId: string) => api.post<HotlistSummary>(`${HOTLISTS}/${id(hotlistId)}/finish`),
  remove: (hotlistId: string) => apiRequest<void>(`${HOTLISTS}/${id(hotlistId)}`, { method: 'DELETE' }),
};
