import { queryOptions } from '@tanstack/react-query';
import type {
  EncounterImportDetail,
  EncounterImportList,
  EncounterMappingInput,
  EncounterPreview,
} from '@pathwell/contracts/encounter-imports';
import { api, apiFetch } from '../../../lib/api-client';

const IMPORTS = '/api/encounterimports';
/** How often a running import's progress is read. */
const PROGRESS_POLL_MS = 1500;

export const importKeys = {
  all: ['encounter-imports'] as const,
  log: () => ['encounter-imports', 'log'] as const,
  one: (importId: string) => ['encounter-imports', 'one', importId] as const,
};

const isRunning = (status: EncounterImportDetail['status'] | undefined) => status === 'queued' || status === 'running';

export const importQueries = {
  log: () =>
    queryOptions({
      queryKey: importKeys.log(),
      queryFn: () => api.get<EncounterImportList>(IMPORTS),
      select: (body) => body.data,
      meta: { silent: true },
      retry: false,
    }),
  /** One import, read again every PROGRESS_POLL_MS while its job runs (the progress bar). */
  one: (importId: string) =>
    queryOptions({
      queryKey: importKeys.one(importId),
      queryFn: () => api.get<EncounterImportDetail>(`${IMPORTS}/${encodeURIComponent(importId)}`, { background: true }),
      refetchInterval: (query) => (isRunning(query.state.data?.status) ? PROGRESS_POLL_MS : false),
      meta: { silent: true },
      retry: false,
    }),
};

async function postFile<T>(path: string, file: File, mapping?: EncounterMappingInput): Promise<T> {
  const body = new FormData();
  // The mapping goes first so the server has it before the file's bytes.
  if (mapping) body.append('mapping', JSON.stringify(mapping));
  body.append('file', file, file.name);
  const response = await apiFetch(path, { method: 'POST', rawBody: body });
  return (await response.json()) as T;
}

export const importApi = {
  preview: (file: File) => postFile<EncounterPreview>(`${IMPORTS}/preview`, file),
  start: (file: File, mapping: EncounterMappingInput) => postFile<{ id: string }>(IMPORTS, file, mapping),
};
