/** A patient-link token: 43 base64url characters (32 random bytes) as one path segment. */
const LINK_TOKEN_SEGMENT = /(?<=\/)[A-Za-z0-9_-]{43}(?=\/|\?|$)/g;

/** The URL with every patient-link token replaced, for logs. */
export function redactLinkTokens(url: string): string {
  return url.replace(LINK_TOKEN_SEGMENT, '[token]');
}
