import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SpotlightFilter, SpotlightPage, SuccessStoryInput, SuccessStorySaved } from '@pathwell/contracts/reports-spotlight';
import { api, apiFetch, apiRequest } from '../../../lib/api-client';
import { fileNameFromDisposition } from '../../../lib/download';

export const spotlightKeys = {
  all: ['reports', 'spotlight'] as const,
  page: (filter: SpotlightFilter) => ['reports', 'spotlight', filter] as const,
};

export const spotlightQueries = {
  page: (filter: SpotlightFilter) =>
    queryOptions({
      queryKey: spotlightKeys.page(filter),
      queryFn: () => api.post<SpotlightPage>('/api/reports/patientsspotlight', filter),
      placeholderData: keepPreviousData,
      meta: { silent: true },
    }),
};

export const spotlightApi = {
  saveStory: (input: SuccessStoryInput) =>
    apiRequest<SuccessStorySaved>('/api/patients/hassuccessstorybeenshared', { method: 'PATCH', body: input }),
  /** The one-page PDF, fetched with the bearer header and saved under the server's file name. */
  downloadPdf: async (patientId: string, formCode: number | null, language: 'en' | 'es') => {
    const response = await apiFetch('/api/patients/patientsspotlightpdf', {
      query: { patientId, language, formCode: formCode ?? undefined },
      accept: 'application/pdf',
    });
    const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'), 'spotlight.pdf');
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return fileName;
  },
};
