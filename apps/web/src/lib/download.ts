import type { ErrorBody } from '@pathwell/contracts/errors';
import { ApiError } from './api-client';
import { ALL_CLINICS, getClinicId, getToken } from './session-storage';

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
 * POSTs `body` and saves the file the server answers (CSV, XLSX). The JSON api client cannot carry a
 * file, so this sends the same bearer token and clinic header itself; `allClinics` as in `apiRequest`.
 */
export async function downloadFile(
  path: string,
  body: unknown,
  fallbackName: string,
  options: { allClinics?: boolean } = {},
): Promise<string> {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const clinicId = getClinicId();
  if (clinicId && (clinicId !== ALL_CLINICS || options.allClinics)) headers.set('ClinicId', clinicId);
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
