import { apiFetch } from './api-client';

/**
 * The file name a Content-Disposition header gives: the exact UTF-8 name (`filename*`, RFC 6266) when
 * there is one, so "spotlight-Andrés-Díaz-Ortega.pdf" keeps its accents, else the plain `filename`.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(header ?? '')?.[1];
  if (encoded) {
    try {
      const name = decodeURIComponent(encoded).replace(/[/\\]/g, '_');
      if (name) return name;
    } catch {
      // A malformed percent-encoding falls back to the plain name.
    }
  }
  return /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? fallback;
}

function fileNameOf(response: Response, fallback: string) {
  return fileNameFromDisposition(response.headers.get('Content-Disposition'), fallback);
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
 * POSTs `body` and saves the file the server answers (CSV, XLSX), through the one authenticated fetch.
 */
export async function downloadFile(
  path: string,
  body: unknown,
  fallbackName: string,
  options: { allClinics?: boolean; accept?: string } = {},
): Promise<string> {
  const response = await apiFetch(path, { method: 'POST', json: body, allClinics: options.allClinics, accept: options.accept });
  const fileName = fileNameOf(response, fallbackName);
  saveFile(await response.blob(), fileName);
  return fileName;
}

/** GETs a file that needs the bearer header (a clinic agreement) and opens it in a new tab. */
export async function openProtectedFile(path: string): Promise<void> {
  const response = await apiFetch(path, { method: 'GET', accept: '*/*' });
  const objectUrl = URL.createObjectURL(await response.blob());
  window.open(objectUrl, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
