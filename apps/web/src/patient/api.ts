import type { CloseAccountRequested, CloseAccountState } from '@pathwell/contracts/close-account';
import type { ConsentLinkView, SignConsent } from '@pathwell/contracts/consent-links';
import type { ErrorBody } from '@pathwell/contracts/errors';
import type { PainJournalEntryInput, PainJournalSaved, PainJournalView } from '@pathwell/contracts/pain-journal';
import type { Answers, FormLanguage } from '@pathwell/contracts/forms';
import type {
  ContactChoice,
  InsuranceCardSaved,
  InsuranceCardSide,
  IntakeSaveResponse,
  IntakeStepSlug,
  IntakeView,
  PatientCheckInResponse,
  SelfCheckInState,
} from '@pathwell/contracts/intake';
import type {
  AccessRequest,
  Draft,
  EmailCodeSent,
  LinkForm,
  LinkStatus,
  LinkStatusResponse,
} from '@pathwell/contracts/patient-links';

/**
 * The few open calls the patient page makes. A failed answer becomes a `PatientApiError` (status and
 * the error body); a network failure stays the `TypeError` fetch throws, so callers can tell them apart.
 */
export class PatientApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody>,
  ) {
    super(body.error ?? `HTTP ${status}`);
  }

  /** The link's state when the server answered 410 GONE. */
  get goneStatus(): Exclude<LinkStatus, 'active'> | null {
    if (this.status !== 410) return null;
    const value = this.body.error;
    return value === 'completed' || value === 'expired' || value === 'revoked' || value === 'locked' ? value : 'expired';
  }
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/** `body` goes as JSON; `raw` (an image) as it is, typed by itself. */
async function call<T>(
  method: string,
  path: string,
  options: { body?: unknown; raw?: Blob; accessToken?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.raw) headers['Content-Type'] = options.raw.type;
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  const response = await fetch(path, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new PatientApiError(response.status, (parsed ?? {}) as Partial<ErrorBody>);
  return parsed as T;
}

const linkPath = (token: string) => `/api/patient-links/${encodeURIComponent(token)}`;

export const patientApi = {
  status: (token: string) => call<LinkStatusResponse>('GET', `${linkPath(token)}/status`),
  verify: (token: string, body: { lastName: string; dateOfBirth: string }) =>
    call<{ accessToken: string; expiresAt: string }>('POST', `${linkPath(token)}/verify`, { body }),
  emailCode: (token: string) => call<EmailCodeSent>('POST', `${linkPath(token)}/emailcode`),
  requestAccess: (token: string, body: AccessRequest) =>
    call<{ received: true }>('POST', `${linkPath(token)}/access-request`, { body }),
  verifyCode: (token: string, body: { code: string }) =>
    call<{ accessToken: string; expiresAt: string }>('POST', `${linkPath(token)}/verifycode`, { body }),
  form: (token: string, accessToken: string) => call<LinkForm>('GET', `${linkPath(token)}/form`, { accessToken }),
  saveDraft: (token: string, accessToken: string, draft: Draft) =>
    call<unknown>('PUT', `${linkPath(token)}/draft`, { body: draft, accessToken }),
  submit: (token: string, accessToken: string, body: { idempotencyKey: string; answers: Answers; language: FormLanguage }) =>
    call<SubmittedAnswer>('POST', `${linkPath(token)}/submit`, { body, accessToken }),
};

/** A stored response; `crisisResources`: the answers include a critical item, so crisis resources come next (decision 0058). */
type SubmittedAnswer = { message: string; responseId: string; crisisResources: boolean };

export type LookupOption = { value: string; label: { en: string; es?: string } };
export type LookupKind = 'usStates' | 'countries' | 'patientPhoneTypes' | 'timeZones';

type EnumerationBody = { type: string; values: { value: string | number; label: { en: string; es: string }; code?: string }[] };

const lookups = new Map<LookupKind, Promise<LookupOption[]>>();

/**
 * The long lists (states, countries, time zones, phone types) are fetched when a question needs them,
 * once per page load, so they never weigh on the bundle. Phone types answer with their code (e.g. MOBILE).
 */
export function loadLookup(kind: LookupKind): Promise<LookupOption[]> {
  const cached = lookups.get(kind);
  if (cached) return cached;
  const loading =
    kind === 'timeZones'
      ? call<{ id: string; name: string }[]>('GET', '/api/timezones').then((zones) =>
          zones.map((zone) => ({ value: zone.id, label: { en: zone.name } })),
        )
      : call<EnumerationBody>('GET', `/api/enums?type=${kind}`).then((body) =>
          body.values.map((option) => ({ value: option.code ?? String(option.value), label: option.label })),
        );
  const guarded = loading.catch((error: unknown) => {
    lookups.delete(kind);
    throw error;
  });
  lookups.set(kind, guarded);
  return guarded;
}

/** Tests start each case with an empty cache. */
export function clearLookups() {
  lookups.clear();
}

const intakePath = (token: string) => `/api/intake/${encodeURIComponent(token)}`;

/** The intake's calls (decision 0032); identity is checked by the link calls above. */
export const intakeApi = {
  view: (token: string, accessToken: string) => call<IntakeView>('GET', intakePath(token), { accessToken }),
  saveStep: (
    token: string,
    accessToken: string,
    slug: IntakeStepSlug,
    body: { final: boolean; language: FormLanguage; data: unknown },
  ) => call<IntakeSaveResponse>('PUT', `${intakePath(token)}/${slug}`, { body, accessToken }),
  form: (token: string, accessToken: string, key: string) =>
    call<LinkForm>('GET', `${intakePath(token)}/forms/${encodeURIComponent(key)}`, { accessToken }),
  saveFormDraft: (token: string, accessToken: string, key: string, draft: Draft) =>
    call<unknown>('PUT', `${intakePath(token)}/forms/${encodeURIComponent(key)}/draft`, { body: draft, accessToken }),
  submitForm: (
    token: string,
    accessToken: string,
    key: string,
    body: { idempotencyKey: string; answers: Answers; language: FormLanguage },
  ) =>
    call<SubmittedAnswer>('POST', `${intakePath(token)}/forms/${encodeURIComponent(key)}/submit`, {
      body,
      accessToken,
    }),
  checkIn: (token: string, accessToken: string) =>
    call<PatientCheckInResponse>('POST', `${intakePath(token)}/checkin`, { accessToken }),
  saveContact: (token: string, accessToken: string, body: { choice: ContactChoice; language: FormLanguage }) =>
    call<IntakeSaveResponse>('PUT', `${intakePath(token)}/contact`, { body, accessToken }),
  /** The clinic's agreement PDF, fetched with the access token and opened as a blob. */
  async agreement(token: string, accessToken: string, language: FormLanguage): Promise<Blob> {
    const response = await fetch(`${intakePath(token)}/agreement?language=${language}`, {
      headers: { Authorization: `Bearer ${accessToken}` },
      cache: 'no-store',
    });
    if (!response.ok) throw new PatientApiError(response.status, {});
    return response.blob();
  },
  /** An insurance card photo goes as the raw body. */
  saveCard: (token: string, accessToken: string, side: InsuranceCardSide, image: Blob) =>
    call<InsuranceCardSaved>('PUT', `${intakePath(token)}/insurance-card/${side}`, { raw: image, accessToken }),
  deleteCard: (token: string, accessToken: string, side: InsuranceCardSide) =>
    call<unknown>('DELETE', `${intakePath(token)}/insurance-card/${side}`, { accessToken }),
  async card(token: string, accessToken: string, side: InsuranceCardSide): Promise<Blob> {
    const response = await fetch(`${intakePath(token)}/insurance-card/${side}`, {
      headers: { Authorization: `Bearer ${accessToken}` },
      cache: 'no-store',
    });
    if (!response.ok) throw new PatientApiError(response.status, {});
    return response.blob();
  },
};

const selfCheckInPath = (patientId: string, appointmentId: string) =>
  `/api/selfcheckin/${encodeURIComponent(patientId)}/${encodeURIComponent(appointmentId)}`;

/** The self check-in QR page's calls (decision 0034). */
const consentPath = (token: string) => `/api/consent-links/${encodeURIComponent(token)}`;

export const consentApi = {
  view: (token: string, accessToken: string) => call<ConsentLinkView>('GET', consentPath(token), { accessToken }),
  sign: (token: string, accessToken: string, body: SignConsent) =>
    call<{ signed: boolean; completed: boolean }>('POST', `${consentPath(token)}/sign`, { body, accessToken }),
  async agreement(token: string, accessToken: string, language: FormLanguage): Promise<Blob> {
    const response = await fetch(`${consentPath(token)}/agreement?language=${language}`, {
      headers: { Authorization: `Bearer ${accessToken}` },
      cache: 'no-store',
    });
    if (!response.ok) throw new PatientApiError(response.status, {});
    return response.blob();
  },
};

export const closeAccountApi = {
  request: (token: string, accessToken: string, language: FormLanguage) =>
    call<CloseAccountRequested>('POST', `${intakePath(token)}/close-account`, { body: { language }, accessToken }),
  state: (patientId: string, token: string) =>
    call<CloseAccountState>('GET', `/api/patients/closeaccount/${encodeURIComponent(patientId)}/${encodeURIComponent(token)}`),
  confirm: (body: { patientId: string; token: string }) =>
    call<CloseAccountState>('POST', '/api/patients/closeaccountconfirmation', { body }),
};

const painJournalPath = (token: string) => `/api/pain-journal/${encodeURIComponent(token)}`;

export const painJournalApi = {
  view: (token: string) => call<PainJournalView>('GET', painJournalPath(token)),
  record: (token: string, body: PainJournalEntryInput) => call<PainJournalSaved>('POST', painJournalPath(token), { body }),
};

export const selfCheckInApi = {
  state: (patientId: string, appointmentId: string) => call<SelfCheckInState>('GET', selfCheckInPath(patientId, appointmentId)),
  checkIn: (patientId: string, appointmentId: string, body: { lastName: string; dateOfBirth: string }) =>
    call<PatientCheckInResponse>('POST', selfCheckInPath(patientId, appointmentId), { body }),
};
