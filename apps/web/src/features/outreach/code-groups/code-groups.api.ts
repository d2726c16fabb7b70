import { queryOptions } from '@tanstack/react-query';
import type { CodeGroup, CodeGroupInput } from '@pathwell/contracts/outreach';
import { api, apiRequest } from '../../../lib/api-client';

const GROUPS = '/api/codegroups';

/** The template builder lists the same groups under ['code-groups', 'options']: one prefix refreshes both. */
export const codeGroupKeys = {
  all: ['code-groups'] as const,
  list: () => ['code-groups', 'list'] as const,
};

export const codeGroupQueries = {
  list: () =>
    queryOptions({
      queryKey: codeGroupKeys.list(),
      queryFn: () => api.get<{ data: CodeGroup[] }>(GROUPS),
      select: (body) => body.data,
      meta: { silent: true },
      retry: false,
    }),
};

export const codeGroupApi = {
  create: (input: CodeGroupInput) => api.post<CodeGroup>(GROUPS, input),
  update: (groupId: string, input: CodeGroupInput) => api.put<CodeGroup>(`${GROUPS}/${encodeURIComponent(groupId)}`, input),
  remove: (groupId: string) => apiRequest<void>(`${GROUPS}/${encodeURIComponent(groupId)}`, { method: 'DELETE' }),
};
