import { queryOptions } from '@tanstack/react-query';
import type { FileKey, InstanceFile, InstanceSettingsUpdate, InstanceSettingsView } from '@pathwell/contracts/instance-settings';
import { api, apiFetch, apiRequest } from '../../lib/api-client';
import { openProtectedFile } from '../../lib/download';

export const instanceSettingsQueries = {
  all: () =>
    queryOptions({
      queryKey: ['instance-settings'],
      queryFn: () => api.get<InstanceSettingsView>('/api/instancesettings'),
    }),
};

/** Files go as multipart through the same authenticated fetch as every call. */
async function uploadTo(path: string, file: File): Promise<InstanceFile> {
  const body = new FormData();
  body.append('fileName', file.name);
  body.append('file', file, file.name);
  const response = await apiFetch(path, { method: 'POST', rawBody: body });
  return (await response.json()) as InstanceFile;
}

export const instanceSettingsApi = {
  save: (update: InstanceSettingsUpdate) => api.put<InstanceSettingsView>('/api/instancesettings', update),
  uploadFile: (key: FileKey, file: File) => uploadTo(`/api/instancesettings/files/${key}`, file),
  deleteFile: (key: FileKey) => apiRequest<void>(`/api/instancesettings/files/${key}`, { method: 'DELETE' }),
  uploadPrivateKey: (file: File) => uploadTo('/api/instancesettings/privatekey', file),
  deletePrivateKey: () => apiRequest<void>('/api/instancesettings/privatekey', { method: 'DELETE' }),
  /** Agreements need the bearer header, so they are fetched and opened as a local object URL. */
  openFile: (url: string) => openProtectedFile(url),
};
