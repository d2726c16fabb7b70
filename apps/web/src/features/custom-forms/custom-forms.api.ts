import { queryOptions } from '@tanstack/react-query';
import type { CustomFormDetail, CustomFormListQuery, CustomFormPage } from '@pathwell/contracts/custom-forms';
import type { FormContent } from '@pathwell/contracts/forms';
import { api, apiRequest } from '../../lib/api-client';

const formUrl = (id: string) => `/api/customforms/${encodeURIComponent(id)}`;

export const customFormKeys = {
  all: ['customForms'] as const,
  detail: (id: string) => [...customFormKeys.all, 'detail', id] as const,
};

export const customFormQueries = {
  list: (query: CustomFormListQuery) =>
    queryOptions({
      queryKey: [...customFormKeys.all, 'list', query],
      queryFn: () => api.get<CustomFormPage>('/api/customforms', { query }),
    }),
  detail: (id: string) =>
    queryOptions({ queryKey: customFormKeys.detail(id), queryFn: () => api.get<CustomFormDetail>(formUrl(id)) }),
};

export const customFormApi = {
  create: (content: FormContent) => api.post<CustomFormDetail>('/api/customforms', content),
  update: (id: string, content: FormContent) => api.put<CustomFormDetail>(formUrl(id), content),
  archive: (id: string) => apiRequest<void>(formUrl(id), { method: 'DELETE' }),
  restore: (id: string) => api.post<void>(`${formUrl(id)}/restore`),
};
