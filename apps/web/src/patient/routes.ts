import { instrumentSlugs } from '@pathwell/contracts/patient-links';

export type PatientRoute =
  { kind: 'instrument'; slug: string; token: string; appointmentId: string | null } | { kind: 'custom'; token: string };

const slugs = new Set<string>(Object.values(instrumentSlugs));

/**
 * The two patient link routes of section 2, read from the path without a router:
 *   /patients/{slug}/{token}/{appointmentId?}   and   /customform/{token}/surveryform
 * Fixed words ignore case, as the staff router does; the token keeps its case.
 */
export function parsePatientPath(pathname: string): PatientRoute | null {
  let parts: string[];
  try {
    parts = pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
  const [first, second, third, fourth, ...rest] = parts;
  if (rest.length > 0 || !first || !second || !third) return null;
  if (first.toLowerCase() === 'patients' && slugs.has(second.toLowerCase())) {
    return { kind: 'instrument', slug: second.toLowerCase(), token: third, appointmentId: fourth ?? null };
  }
  if (first.toLowerCase() === 'customform' && third.toLowerCase() === 'surveryform' && fourth === undefined) {
    return { kind: 'custom', token: second };
  }
  return null;
}
