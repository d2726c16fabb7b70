import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  AudiencePreview,
  AudienceRuleInput,
  AudienceTemplate,
  AudienceTemplateKind,
  CodeGroup,
} from '@pathwell/contracts/outreach';
import { api, apiRequest } from '../../../lib/api-client';

const TEMPLATES = '/api/audiencetemplates';
const PREVIEW_PATH = '/api/patients/patientscontrollistfortemplate';
const id = (value: string) => encodeURIComponent(value);

export type TemplateBody = {
  name: string;
  kind: AudienceTemplateKind;
  description: string | null;
  rule: AudienceRuleInput;
};

export const templateKeys = {
  all: ['audience-templates'] as const,
  list: (kind: AudienceTemplateKind) => ['audience-templates', 'list', kind] as const,
  one: (templateId: string) => ['audience-templates', 'one', templateId] as const,
  preview: (kind: AudienceTemplateKind, rule: unknown) => ['audience-templates', 'preview', kind, rule] as const,
  codeGroups: () => ['code-groups', 'options'] as const,
};

// The pages show their own loading and failure states, so the global error toast stays quiet.
const quiet = { meta: { silent: true }, retry: false } as const;

export const templateQueries = {
  list: (kind: AudienceTemplateKind) =>
    queryOptions({
      queryKey: templateKeys.list(kind),
      queryFn: () => api.get<{ data: AudienceTemplate[] }>(TEMPLATES, { query: { kind } }),
      select: (body) => body.data,
      ...quiet,
    }),
  one: (templateId: string) =>
    queryOptions({
      queryKey: templateKeys.one(templateId),
      queryFn: () => api.get<AudienceTemplate>(`${TEMPLATES}/${id(templateId)}`),
      ...quiet,
    }),
  /** The audience of the rule being built (audited on the server: asked for only as the rule changes). */
  preview: (kind: AudienceTemplateKind, rule: AudienceRuleInput) =>
    queryOptions({
      queryKey: templateKeys.preview(kind, rule),
      queryFn: () => api.post<AudiencePreview>(PREVIEW_PATH, { kind, rule }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      ...quiet,
    }),
  codeGroups: () =>
    queryOptions({
      queryKey: templateKeys.codeGroups(),
      queryFn: () => api.get<{ data: CodeGroup[] }>('/api/codegroups', { background: true }),
      select: (body) => body.data,
      staleTime: 60_000,
      ...quiet,
    }),
};

export const templateApi = {
  create: (body: TemplateBody) => api.post<AudienceTemplate>(TEMPLATES, body),
  update: (templateId: string, body: TemplateBody) => api.put<AudienceTemplate>(`${TEMPLATES}/${id(templateId)}`, body),
  remove: (templateId: string) => apiRequest<void>(`${TEMPLATES}/${id(templateId)}`, { method: 'DELETE' }),
};

/** Where each kind's builder and list live (the specification's routes). */
export const builderPath = (kind: AudienceTemplateKind, templateId?: string) => {
  const query = new URLSearchParams();
  if (templateId) query.set('id', templateId);
  if (kind === 'hotlist') query.set('kind', 'hotlist');
  const text = query.toString();
  return `/codepulls/templates${text ? `?${text}` : ''}`;
};
export const listPath = (kind: AudienceTemplateKind) => (kind === 'hotlist' ? '/hotlisttemplatelist' : '/templateList');
