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
import type { ErrorBody } from '@pathwell/contracts/errors';
import { api, ApiError } from '../../lib/api-client';
import { ALL_CLINICS, getClinicId, getToken } from '../../lib/session-storage';

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

function fileNameOf(response: Response, fallback: string) {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? fallback;
}

/** Hands a file to the browser's downloads, as a link the person clicked would. */
function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns; let them finish first.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * POSTs the filters and saves the CSV the server answers. The JSON api client cannot carry a file,
 * so this sends the same bearer token and clinic header itself.
 */
async function downloadCsv(path: string, body: unknown, fallbackName: string): Promise<string> {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'text/csv, application/json' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const clinicId = getClinicId();
  if (clinicId && clinicId !== ALL_CLINICS) headers.set('ClinicId', clinicId);
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(null, null, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const errorBody = (await response.json().catch(() => null)) as ErrorBody | null;
    throw new ApiError(response.status, errorBody, errorBody?.error ?? (response.statusText || `HTTP ${response.status}`));
  }
  const fileName = fileNameOf(response, fallbackName);
  saveFile(await response.blob(), fileName);
  return fileName;
}

export const activityApi = {
  exportActivity: (input: ActivityExportInput) => downloadCsv('/api/activitylogs/export', input, 'activity-log.csv'),
  exportLoginDetails: (input: LoginDetailsExportInput) => downloadCsv('/api/logindetails/export', input, 'login-details.csv'),
};
