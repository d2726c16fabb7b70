import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import type { OutboxMessage } from '@pathwell/contracts/session';
import { api } from '../../lib/api-client';

type OutboxPage = { totalRecords: number; data: OutboxMessage[] };

export const outboxQueries = {
  page: (pageNumber: number, pageSize = PAGE_SIZE_DEFAULT) =>
    queryOptions({
      queryKey: ['outbox', pageNumber, pageSize],
      queryFn: () => api.get<OutboxPage>('/api/outbox', { query: { pageNumber, pageSize } }),
      placeholderData: keepPreviousData,
    }),
};
