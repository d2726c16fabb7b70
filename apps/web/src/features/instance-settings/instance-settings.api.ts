import { queryOptions } from '@tanstack/react-query';
import type { ErrorBody } from '@pathwell/contracts/errors';
import type { FileKey, InstanceFile, InstanceSettingsUpdate, InstanceSettingsView } from '@pathwell/contracts/instance-settings';
import { api, apiRequest, ApiError } from '../../lib/api-client';
import { ALL_CLINICS, getClinicId, getToken } from '../../lib/session-storage';

export const instanceSettingsQueries = {
  all: () =>
    queryOptions({
      queryKey: ['instance-settings'],
      queryFn: () => api.get<InstanceSettingsView>('/api/instancesettings'),
    }),
};

/** The api client speaks JSON; files go as multipart with the same headers. */
function authHeaders(): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const clinicId = getClinicId();
  if (clinicId && clinicId !== ALL_CLINICS) headers.set('ClinicId', clinicId);
  return headers;
}

async function failure(response: Response): Promise<ApiError> {
  let body: ErrorBody | null = null;
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    body = null;
  }
  return new ApiError(response.status, body, body?.error ?? (response.statusText || `HTTP ${response.status}`));
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { ...init, headers: authHeaders() });
  } catch (error) {
    throw new ApiError(null, null, error instanceof Error ? error.message : String(error));
  }
}

async function uploadTo(path: string, file: File): Promise<InstanceFile> {
  const body = new FormData();
  body.append('fileName', file.name);
  body.append('file', file, file.name);
  const response = await send(path, { method: 'POST', body });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as InstanceFile;
}

export const instanceSettingsApi = {
  save: (update: InstanceSettingsUpdate) => api.put<InstanceSettingsView>('/api/instancesettings', update),
  uploadFile: (key: FileKey, file: File) => uploadTo(`/api/instancesettings/files/${key}`, file),
  deleteFile: (key: FileKey) => apiRequest<void>(`/api/instancesettings/files/${key}`, { method: 'DELETE' }),
  uploadPrivateKey: (file: File) => uploadTo('/api/instancesettings/privatekey', file),
  deletePrivateKey: () => apiRequest<void>('/api/instancesettings/privatekey', { method: 'DELETE' }),
  /** Agreements need the bearer header, so they are fetched and opened as a local object URL. */
  openFile: async (url: string) => {
    const response = await send(url, { method: 'GET' });
    if (!response.ok) throw await failure(response);
    const objectUrl = URL.createObjectURL(await response.blob());
    window.open(objectUrl, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  },
};
