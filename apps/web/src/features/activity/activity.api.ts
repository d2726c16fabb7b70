import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ActivityActor,
  ActivityExportInput,
  ActivityFilterInput,
  ActivityPage,
  LoginDetailsExportInput,
  LoginDetailsFilterInput,
  LoginDetailsPage,
} from '@pathwell/contracts/activity';
import type { ActivityArea } from '@pathwell/contracts/enums';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';

export const activityKeys = {
  all: ['activity'] as const,
  page: (filter: ActivityFilterInput) => ['activity', 'log', filter] as const,
  loginPage: (filter: LoginDetailsFilterInput) => ['activity', 'login', filter] as const,
  actors: (area: ActivityArea | null) => ['activity', 'actors', area] as const,
};

export const activityQueries = {
  page: (filter: ActivityFilterInput) =>
    queryOptions({
      queryKey: activityKeys.page(filter),
      queryFn: () => api.post<ActivityPage>('/api/activitylogs/filtered', filter),
      placeholderData: keepPreviousData,
    }),
  loginPage: (filter: LoginDetailsFilterInput) =>
    queryOptions({
      queryKey: activityKeys.loginPage(filter),
      queryFn: () => api.post<LoginDetailsPage>('/api/logindetails/filtered', filter),
      placeholderData: keepPreviousData,
    }),
  actors: (area: ActivityArea | null = null) =>
    queryOptions({
      queryKey: activityKeys.actors(area),
      queryFn: () => api.get<ActivityActor[]>('/api/activitylogs/actors', { query: { area }, background: true }),
      staleTime: 60_000,
    }),
};

export const activityApi = {
  exportActivity: (input: ActivityExportInput) => downloadFile('/api/activitylogs/export', input, 'activity-log.csv'),
  exportLoginDetails: (input: LoginDetailsExportInput) => downloadFile('/api/logindetails/export', input, 'login-details.csv'),
};
