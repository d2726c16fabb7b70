import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import type {
  ManagedItem,
  ManagedItemInput,
  ManagedItemPage,
  ManagedListDefinition,
  PerioperativeDetail,
  PerioperativeDetailInput,
  PerioperativeTemplate,
  PerioperativeTemplateInput,
  PerioperativeTemplatePage,
  managedItemSortFields,
} from '@pathwell/contracts/managed-lists';
import { apiRequest, api } from '../../lib/api-client';

export type SortField = (typeof managedItemSortFields)[number];
type ListParams = {
  search?: string;
  sortBy: SortField;
  sortDirection: 'asc' | 'desc';
  /** Undefined: active and inactive entries. */
  active?: boolean;
  pageNumber: number;
  pageSize: number;
};

export const defaultListParams: ListParams = {
  sortBy: 'sortOrder',
  sortDirection: 'asc',
  pageNumber: PAGE_NUMBER_DEFAULT,
  pageSize: PAGE_SIZE_DEFAULT,
};

/** `?type=2` for interventional items, `?kind=race` for custom fields, nothing for the other lists. */
const variantQuery = (list: ManagedListDefinition): Record<string, string> =>
  list.variant ? { [list.variant.param]: list.variant.value } : {};

const itemUrl = (list: ManagedListDefinition, id: string) => `${list.apiPath}/${encodeURIComponent(id)}`;

export const managedListKeys = {
  list: (list: ManagedListDefinition) => ['managed-lists', list.listType] as const,
};

export const managedListQueries = {
  page: (list: ManagedListDefinition, params: ListParams) =>
    queryOptions({
      queryKey: [...managedListKeys.list(list), params],
      queryFn: () =>
        api.get<ManagedItemPage>(list.apiPath, {
          query: {
            ...variantQuery(list),
            ...params,
            search: params.search || undefined,
            active: params.active === undefined ? undefined : String(params.active),
          },
        }),
      placeholderData: keepPreviousData,
    }),
  /** Every active entry in the clinic's order, for selectors on other screens. */
  options: (list: ManagedListDefinition) =>
    queryOptions({
      queryKey: [...managedListKeys.list(list), 'options'],
      queryFn: () =>
        api.get<ManagedItemPage>(list.apiPath, {
          query: { ...variantQuery(list), active: 'true', sortBy: 'sortOrder', pageSize: 999 },
          background: true,
        }),
      select: (page) => page.data,
      staleTime: 5 * 60_000,
    }),
};

export const managedListApi = {
  create: (list: ManagedListDefinition, input: ManagedItemInput) =>
    api.post<ManagedItem>(list.apiPath, input, { query: variantQuery(list) }),
  update: (list: ManagedListDefinition, id: string, input: ManagedItemInput) => api.put<ManagedItem>(itemUrl(list, id), input),
  remove: (list: ManagedListDefinition, id: string) => apiRequest<void>(itemUrl(list, id), { method: 'DELETE' }),
};

const TEMPLATES = '/api/perioperativemessagetemplates';
const templateUrl = (id: string) => `${TEMPLATES}/${encodeURIComponent(id)}`;
const detailUrl = (templateId: string, detailId: string) => `${templateUrl(templateId)}/details/${encodeURIComponent(detailId)}`;

export const perioperativeKeys = {
  all: ['perioperative-templates'] as const,
  one: (id: string) => ['perioperative-templates', 'one', id] as const,
};

type TemplateListParams = { search?: string; pageNumber: number; pageSize: number };

export const perioperativeQueries = {
  page: (params: TemplateListParams) =>
    queryOptions({
      queryKey: [...perioperativeKeys.all, 'page', params],
      queryFn: () =>
        api.get<PerioperativeTemplatePage>(TEMPLATES, {
          query: { ...params, search: params.search || undefined, sortBy: 'name' },
        }),
      placeholderData: keepPreviousData,
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: perioperativeKeys.one(id),
      queryFn: () => api.get<PerioperativeTemplate>(templateUrl(id)),
    }),
};

export const perioperativeApi = {
  create: (input: PerioperativeTemplateInput) => api.post<PerioperativeTemplate>(TEMPLATES, input),
  update: (id: string, input: PerioperativeTemplateInput) => api.put<PerioperativeTemplate>(templateUrl(id), input),
  remove: (id: string) => apiRequest<void>(templateUrl(id), { method: 'DELETE' }),
  duplicate: (id: string) => api.post<PerioperativeTemplate>(`${templateUrl(id)}/duplicate`),
  createDetail: (templateId: string, input: PerioperativeDetailInput) =>
    api.post<PerioperativeDetail>(`${templateUrl(templateId)}/details`, input),
  updateDetail: (templateId: string, detailId: string, input: PerioperativeDetailInput) =>
    api.put<PerioperativeDetail>(detailUrl(templateId, detailId), input),
  removeDetail: (templateId: string, detailId: string) => apiRequest<void>(detailUrl(templateId, detailId), { method: 'DELETE' }),
};
