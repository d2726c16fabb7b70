import { ApiError } from './api-client';
import { i18n, translateServerText } from './i18n';

/** Text of a failed call (section 8): the server's error, else the error itself. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (!error.hasResponse) return i18n.t('errors:texts.apiUnavailable');
    return error.serverMessage ?? translateServerText(error.message);
  }
  return error instanceof Error ? error.message : String(error);
}
