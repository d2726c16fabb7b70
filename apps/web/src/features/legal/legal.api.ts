import { queryOptions } from '@tanstack/react-query';
import type { LegalPage, LegalText } from '@pathwell/contracts/legal-texts';
import { api } from '../../lib/api-client';

export const legalQueries = {
  /** An open call: the clinic named in the page's link, or none for Pathwell's defaults. */
  page: (page: LegalPage, clinic: string | null) =>
    queryOptions({
      queryKey: ['legal', page, clinic],
      queryFn: () => api.get<LegalText>(`/api/public/legal/${page}`, { query: { clinic } }),
      staleTime: 5 * 60_000,
      retry: false,
    }),
};
