import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  campaignRecipientFilters,
  CampaignAudiencePreview,
  CampaignDetail,
  CampaignInput,
  CampaignRecipient,
  CampaignResponse,
  CampaignResponseKind,
  CampaignSummary,
} from '@pathwell/contracts/campaigns';
import type { AudiencePatient, CampaignChannel, CampaignStatus } from '@pathwell/contracts/outreach';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { api, apiRequest } from '../../../lib/api-client';

/** A code pull template as the campaign form lists it (GET /api/audiencetemplates?kind=campaign). */
type CampaignTemplateOption = { id: string; name: string; description: string | null };
type Paged<T> = { totalRecords: number; data: T[] };

/** The frozen recipients list filters by channel state: waiting, handed to the outbox, skipped. */
export type RecipientFilter = (typeof campaignRecipientFilters)[number];

const id = (value: string) => encodeURIComponent(value);
const SENDING_POLL_MS = 5000;

/** Approved and with recipients still waiting their turn: the send is under way. */
export const isSending = (campaign: CampaignDetail | undefined) => campaign?.status === 'approved' && campaign.funnel.pending > 0;

const CAMPAIGNS = '/api/campaigns';

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (status: CampaignStatus | null, pageNumber: number) => ['campaigns', 'list', status, pageNumber] as const,
  one: (campaignId: string) => ['campaigns', 'one', campaignId] as const,
  templates: () => ['campaigns', 'templates'] as const,
  audience: (templateId: string, channels: CampaignChannel[]) => ['campaigns', 'audience', templateId, channels] as const,
  approvalAudience: (campaignId: string, pageNumber: number) =>
    ['campaigns', 'approvalAudience', campaignId, pageNumber] as const,
  recipients: (campaignId: string, status: RecipientFilter | null, pageNumber: number) =>
    ['campaigns', 'recipients', campaignId, status, pageNumber] as const,
  responses: (campaignId: string, kind: CampaignResponseKind | null, pageNumber: number) =>
    ['campaigns', 'responses', campaignId, kind, pageNumber] as const,
  results: (from: string, to: string) => ['campaigns', 'results', from, to] as const,
};

// Pages show their own loading and failure states, so the global error toast stays quiet.
const quiet = { meta: { silent: true }, retry: false } as const;

export const campaignQueries = {
  list: (status: CampaignStatus | null, pageNumber: number) =>
    queryOptions({
      queryKey: campaignKeys.list(status, pageNumber),
      queryFn: () => api.get<Paged<CampaignSummary>>(CAMPAIGNS, { query: { status, pageNumber, pageSize: PAGE_SIZE_DEFAULT } }),
      placeholderData: keepPreviousData,
      ...quiet,
    }),
  one: (campaignId: string) =>
    queryOptions({
      queryKey: campaignKeys.one(campaignId),
      queryFn: () => api.get<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}`),
      ...quiet,
    }),
  /** The approved view: while the campaign is sending, its progress refreshes every 5 s, quietly. */
  live: (campaignId: string) =>
    queryOptions({
      queryKey: campaignKeys.one(campaignId),
      queryFn: () => api.get<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}`, { background: true }),
      refetchInterval: (query) => (isSending(query.state.data) ? SENDING_POLL_MS : false),
      ...quiet,
    }),
  templates: () =>
    queryOptions({
      queryKey: campaignKeys.templates(),
      queryFn: () => api.get<{ data: CampaignTemplateOption[] }>('/api/audiencetemplates', { query: { kind: 'campaign' } }),
      ...quiet,
    }),
  audience: (templateId: string, channels: CampaignChannel[]) =>
    queryOptions({
      queryKey: campaignKeys.audience(templateId, channels),
      queryFn: () => api.post<CampaignAudiencePreview>(`${CAMPAIGNS}/audience`, { templateId, channels }, { background: true }),
      staleTime: 60_000,
      ...quiet,
    }),
  /** Who approving the campaign now would message, a page at a time (the approver reads it first). */
  approvalAudience: (campaignId: string, pageNumber: number) =>
    queryOptions({
      queryKey: campaignKeys.approvalAudience(campaignId, pageNumber),
      queryFn: () =>
        api.get<Paged<AudiencePatient>>(`${CAMPAIGNS}/${id(campaignId)}/audience`, {
          query: { pageNumber, pageSize: PAGE_SIZE_DEFAULT },
        }),
      placeholderData: keepPreviousData,
      ...quiet,
    }),
  recipients: (campaignId: string, status: RecipientFilter | null, pageNumber: number, sending = false) =>
    queryOptions({
      queryKey: campaignKeys.recipients(campaignId, status, pageNumber),
      queryFn: () =>
        api.get<Paged<CampaignRecipient>>('/api/patients/patientscontrollist', {
          query: { campaignId, status, pageNumber, pageSize: PAGE_SIZE_DEFAULT },
          background: sending,
        }),
      refetchInterval: sending ? SENDING_POLL_MS : false,
      placeholderData: keepPreviousData,
      ...quiet,
    }),
  responses: (campaignId: string, kind: CampaignResponseKind | null, pageNumber: number) =>
    queryOptions({
      queryKey: campaignKeys.responses(campaignId, kind, pageNumber),
      queryFn: () =>
        api.get<Paged<CampaignResponse>>(`${CAMPAIGNS}/${id(campaignId)}/responses`, {
          query: { kind, pageNumber, pageSize: PAGE_SIZE_DEFAULT },
        }),
      placeholderData: keepPreviousData,
      ...quiet,
    }),
  /** `from` and `to` are clinic dates (YYYY-MM-DD); empty means no bound. */
  results: (from: string, to: string) =>
    queryOptions({
      queryKey: campaignKeys.results(from, to),
      queryFn: () =>
        api.get<{ data: CampaignSummary[] }>(`${CAMPAIGNS}/results`, { query: { from: from || null, to: to || null } }),
      ...quiet,
    }),
};

export const campaignApi = {
  create: (input: CampaignInput) => api.post<CampaignDetail>(CAMPAIGNS, input),
  update: (campaignId: string, input: CampaignInput) => api.put<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}`, input),
  remove: (campaignId: string) => apiRequest<void>(`${CAMPAIGNS}/${id(campaignId)}`, { method: 'DELETE' }),
  /** Approval names the content the approver reviewed (its digest); 409 when it has changed since. */
  approve: (campaignId: string, contentHash: string) =>
    api.post<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}/approve`, { contentHash }),
  textSending: (campaignId: string, enabled: boolean) =>
    api.put<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}/textsending`, { enabled }),
  finish: (campaignId: string) => api.post<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}/finish`),
  archive: (campaignId: string) => api.post<CampaignDetail>(`${CAMPAIGNS}/${id(campaignId)}/archive`),
};
