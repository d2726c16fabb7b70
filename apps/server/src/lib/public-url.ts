import type { Config } from '../config';

/**
 * Every address in a message (emails, texts, short links) is built here, on the configured PUBLIC_URL
 * only (issue #24 §3, decision 0064). Never on the request's Host, Origin, X-Forwarded-* or protocol: the
 * caller chooses those, and a link on their host would hand the patient's token to them.
 */
export function publicLink(config: Pick<Config, 'publicUrl'>, path: string): string {
  return `${config.publicUrl}${path.startsWith('/') ? path : `/${path}`}`;
}
