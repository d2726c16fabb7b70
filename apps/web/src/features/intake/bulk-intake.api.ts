import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  BulkIntakeProgress,
  bulkIntakeCandidateSchema,
  bulkIntakePreviewSchema,
  bulkIntakeStartedSchema,
  intakeSendChannels,
} from '@pathwell/contracts/intake';
import { api } from '../../lib/api-client';

const BASE = '/api/patients/bulkintakenotification';

/** How often the progress of a sending batch is asked for while messages still wait. */
const BULK_PROGRESS_POLL_MS = 1000;

export type BulkIntakeChannel = (typeof intakeSendChannels)[number];
/** The body of both the preview and the send: MM/DD/YYYY, providers (empty: all) and channels. */
export type BulkIntakeQuery = { date: string; doctorIds: string[]; send: BulkIntakeChannel[] };
export type BulkIntakeCandidate = z.infer<typeof bulkIntakeCandidateSchema>;
type BulkIntakePreview = z.infer<typeof bulkIntakePreviewSchema>;
type BulkIntakeStarted = z.infer<typeof bulkIntakeStartedSchema>;
export type { BulkIntakeProgress };

export const bulkIntakeKeys = {
  all: ['bulkIntake'] as const,
  previews: ['bulkIntake', 'preview'] as const,
  preview: (query: BulkIntakeQuery) => ['bulkIntake', 'preview', query] as const,
  progress: (batchId: string) => ['bulkIntake', 'progress', batchId] as const,
};

/** The page shows its own loading and error states (errors under the fields), so the global toast stays quiet. */
export const bulkIntakeQueries = {
  preview: (query: BulkIntakeQuery) =>
    queryOptions({
      queryKey: bulkIntakeKeys.preview(query),
      queryFn: () => api.post<BulkIntakePreview>(`${BASE}/preview`, query),
      meta: { silent: true },
    }),
  /** Polled every second until no message of the batch waits any more (or the call fails). */
  progress: (batchId: string) =>
    queryOptions({
      queryKey: bulkIntakeKeys.progress(batchId),
      queryFn: () => api.get<BulkIntakeProgress>(`${BASE}/${encodeURIComponent(batchId)}`, { background: true }),
      refetchInterval: (query) =>
        query.state.status === 'error' || query.state.data?.waiting === 0 ? false : BULK_PROGRESS_POLL_MS,
      meta: { silent: true },
    }),
};

export const bulkIntakeApi = {
  send: (query: BulkIntakeQuery) => api.post<BulkIntakeStarted>(BASE, query),
};
