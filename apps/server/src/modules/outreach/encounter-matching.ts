import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rowsOf } from '../../lib/sql-rows';
import type { RowCandidate } from './encounter-csv';

interface ExternalIdMatchRow {
  id: string;
  external_id: string;
}

/** A patient matched by name: `l`, `f` (lower-cased names) and `d` (YYYY-MM-DD) are the key that matched. */
interface NameMatchRow {
  id: string;
  l: string;
  f: string;
  d: string;
}

/** Patient ids for the batch's external ids and names; a name with two patients maps to `ambiguous`. */
export async function matchPatients(db: Database, instanceId: string, candidates: readonly RowCandidate[]) {
  const externalIds = [...new Set(candidates.flatMap((c) => (c.externalPatientId ? [c.externalPatientId] : [])))];
  const nameKey = (name: NonNullable<RowCandidate['name']>) => `${name.last}\u0000${name.first}\u0000${name.dateOfBirth}`;
  const names = [...new Map(candidates.flatMap((c) => (c.name ? [[nameKey(c.name), c.name] as const] : []))).values()];
  const byExternal = new Map<string, string | 'ambiguous'>();
  const byName = new Map<string, string | 'ambiguous'>();
  const remember = (map: Map<string, string | 'ambiguous'>, key: string, id: string) =>
    map.set(key, map.has(key) && map.get(key) !== id ? 'ambiguous' : id);
  if (externalIds.length > 0) {
    const rows = await rowsOf<ExternalIdMatchRow>(
      db,
      sql`select p.id, p.external_id
            from patients p
           where p.instance_id = ${instanceId} and p.deleted_at is null
             and p.external_id in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`,
    );
    for (const row of rows) remember(byExternal, row.external_id, row.id);
  }
  if (names.length > 0) {
    const rows = await rowsOf<NameMatchRow>(
      db,
      sql`select p.id, k.l, k.f, to_char(k.d, 'YYYY-MM-DD') as d
            from jsonb_to_recordset(${JSON.stringify(names.map((n) => ({ l: n.last, f: n.first, d: n.dateOfBirth })))}::jsonb)
                 as k(l text, f text, d date)
            join patients p
              on p.instance_id = ${instanceId} and p.deleted_at is null
             and lower(p.last_name) = k.l and p.date_of_birth = k.d and lower(p.first_name) = k.f`,
    );
    for (const row of rows) remember(byName, `${row.l}\u0000${row.f}\u0000${row.d}`, row.id);
  }
  return (candidate: RowCandidate) =>
    candidate.externalPatientId
      ? byExternal.get(candidate.externalPatientId)
      : candidate.name
        ? byName.get(nameKey(candidate.name))
        : undefined;
}

/** Compares provider names without case, accents, punctuation, titles or word order ("Ortiz, Daniela MD"). */
const providerKey = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9@.\s]/g, ' ')
    .replace(/\./g, ' ')
    .split(/\s+/)
    .filter((word) => word && !['dr', 'md', 'do', 'np', 'pa', 'pac', 'dnp', 'crna', 'phd'].includes(word))
    .sort()
    .join(' ');

interface ClinicUserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

/** The clinic's staff by email and by name, to turn a provider cell into a user where one matches. */
export async function clinicProviders(db: Database, instanceId: string) {
  const rows = await rowsOf<ClinicUserRow>(
    db,
    sql`select u.id, u.email, u.first_name, u.last_name
          from users u
         where u.deleted_at is null
           and (u.instance_id = ${instanceId}
                or exists (select 1 from user_instances m where m.user_id = u.id and m.instance_id = ${instanceId}))`,
  );
  const byKey = new Map<string, { id: string; name: string }>();
  for (const row of rows) {
    const user = { id: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') };
    byKey.set(row.email.toLowerCase(), user);
    byKey.set(providerKey(user.name), user);
  }
  return (cell: string | null) => {
    if (!cell) return { providerId: null, providerName: null };
    const user = byKey.get(cell.toLowerCase()) ?? byKey.get(providerKey(cell));
    return user ? { providerId: user.id, providerName: user.name } : { providerId: null, providerName: cell };
  };
}

/** The same encounter twice is one visit: by its external id, else by patient, date, provider and codes. */
export function dedupeKeyOf(
  patientId: string,
  candidate: RowCandidate,
  provider: { providerId: string | null; providerName: string | null },
) {
  if (candidate.externalVisitId) return `ext:${candidate.externalVisitId}`;
  const who = provider.providerId ?? (provider.providerName ? providerKey(provider.providerName) : '');
  const digest = createHash('sha256')
    .update([patientId, candidate.visitDate, who, ...[...candidate.codes].sort()].join('|'))
    .digest('base64url');
  return `enc:${digest}`;
}
