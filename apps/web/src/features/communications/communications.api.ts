import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CommunicationCounts, CommunicationFilter, CommunicationPage } from '@pathwell/contracts/messaging';
import { api, apiFetch } from '../../lib/api-client';

export const communicationKeys = { all: ['communications'] as const };

export const communicationQueries = {
  page: (filter: CommunicationFilter) =>
    queryOptions({
      queryKey: [...communicationKeys.all, 'page', filter],
      queryFn: () => api.post<CommunicationPage>('/api/communications/filtered', filter),
      placeholderData: keepPreviousData,
    }),
  counts: () =>
    queryOptions({
      queryKey: [...communicationKeys.all, 'counts'],
      queryFn: () => api.get<CommunicationCounts>('/api/communications/counts', { background: true }),
    }),
};

/** A file of one of the clinic's messages (a support request's screenshot), as a blob to show. */
export async function fetchAttachment(messageId: string, attachmentId: string): Promise<Blob> {
  const response = await apiFetch(`/api/communications/${messageId}/attachments/${attachmentId}`, { accept: 'image/*' });
  return response.blob();
}
