import { queryOptions } from '@tanstack/react-query';
import type { PainInterval, PainSeries, PainTimeline, SendPainJournal, SentPainJournal } from '@pathwell/contracts/pain-journal';
import { api } from '../../lib/api-client';

const painKeys = {
  timeline: (patientId: string) => ['pain-timeline', patientId] as const,
  series: (patientId: string, interval: PainInterval) => ['pain-series', patientId, interval] as const,
};

// Each read writes a Viewed entry in the activity log: no silent refetching on focus.
export const painQueries = {
  timeline: (patientId: string) =>
    queryOptions({
      queryKey: painKeys.timeline(patientId),
      queryFn: () => api.get<PainTimeline>(`/api/patients/${encodeURIComponent(patientId)}/paintimeline`),
      refetchOnWindowFocus: false,
      retry: false,
    }),
  series: (patientId: string, interval: PainInterval) =>
    queryOptions({
      queryKey: painKeys.series(patientId, interval),
      queryFn: () => api.get<PainSeries>('/api/patients/painjournal', { query: { patientId, interval } }),
      refetchOnWindowFocus: false,
      retry: false,
    }),
};

export const painJournalApi = {
  send: (patientId: string, body: SendPainJournal) =>
    api.post<SentPainJournal>(`/api/patients/${encodeURIComponent(patientId)}/painjournal/send`, body),
};
