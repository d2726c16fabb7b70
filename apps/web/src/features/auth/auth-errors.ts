import { ApiError } from '../../lib/api-client';
import { i18n } from '../../lib/i18n';

type FallbackKey = 'loginFailed' | 'forgetPasswordFailed' | 'updatePasswordFailed' | 'setPasswordFailed';

/**
 * Section 8 failure text of an account form: without an answer the API-unavailable text (for sign-in)
 * or the form's own fallback; with one, the server's message, else that fallback.
 */
export function accountErrorText(
  error: unknown,
  fallback: FallbackKey,
  noResponse: 'apiUnavailable' | FallbackKey = fallback,
): string {
  if (error instanceof ApiError) {
    if (!error.hasResponse) return i18n.t(`errors:texts.${noResponse}`);
    if (error.serverMessage) return error.serverMessage;
  }
  return i18n.t(`errors:texts.${fallback}`);
}
