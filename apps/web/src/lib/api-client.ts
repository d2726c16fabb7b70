import { TOKEN_NOT_VALID, type ErrorBody } from '@pathwell/contracts/errors';
import { ALL_CLINICS, clearSession, getClinicId, getToken } from './session-storage';
import { serverMessageText } from './i18n';

/**
 * A failed call. `status` is null when no HTTP answer arrived (network down, server unreachable):
 * several screens show a different text then (specification section 8).
 */
export class ApiError extends Error {
  readonly status: number | null;
  readonly body: ErrorBody | null;
  readonly retryAfterSeconds: number | null;

  constructor(status: number | null, body: ErrorBody | null, message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get hasResponse(): boolean {
    return this.status !== null;
  }

  /** The server's message in the user's language (by its `messageKey`), if it sent one. */
  get serverMessage(): string | null {
    return this.body ? serverMessageText(this.body) : null;
  }

  get fields(): Record<string, string> {
    return this.body?.fields ?? {};
  }

  get isInvalidToken(): boolean {
    return this.status === 401 && this.body?.msg === TOKEN_NOT_VALID;
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Background calls (keepalive, shell lists) do not raise the full-screen loading overlay. */
  background?: boolean;
  /**
   * Whether the route accepts a parent user's all-clinics view. Other routes need one clinic, so in
   * that view they go without the header and the server acts for the user's home clinic.
   */
  allClinics?: boolean;
  signal?: AbortSignal;
}

let inflight = 0;
const inflightListeners = new Set<() => void>();

function changeInflight(delta: number) {
  inflight = Math.max(0, inflight + delta);
  for (const listener of inflightListeners) listener();
}

/** The global loading flag of section 4: the number of foreground calls under way. */
export const inflightRequests = {
  subscribe(listener: () => void) {
    inflightListeners.add(listener);
    return () => inflightListeners.delete(listener);
  },
  getSnapshot: () => inflight,
};

let onInvalidToken: () => void = () => {
  if (window.location.pathname !== '/signin') window.location.assign('/signin');
};

/** The router registers navigation to /signin here; storage is cleared before it runs. */
export function setInvalidTokenHandler(handler: () => void) {
  onInvalidToken = handler;
}

function buildUrl(path: string, query: RequestOptions['query']) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function buildHeaders(options: FetchOptions): Headers {
  const headers = new Headers({ Accept: options.accept ?? 'application/json' });
  if (options.json !== undefined) headers.set('Content-Type', 'application/json');
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const clinicId = getClinicId();
  if (clinicId && (clinicId !== ALL_CLINICS || options.allClinics)) headers.set('ClinicId', clinicId);
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('application/json')) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function asErrorBody(value: unknown): ErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const candidate = value as Partial<ErrorBody>;
  return typeof candidate.error === 'string' || typeof candidate.msg === 'string' ? (value as ErrorBody) : null;
}

interface FetchOptions extends Omit<RequestOptions, 'body'> {
  /** A JSON body (sent with Content-Type application/json). */
  json?: unknown;
  /** Any other body: a FormData upload sets its own multipart Content-Type. */
  rawBody?: BodyInit;
  accept?: string;
}

/**
 * The one authenticated fetch of the staff app: bearer token, clinic header, the loading flag, and on
 * failure an ApiError, with section 4's invalid-token handling (session cleared, back to sign-in).
 * JSON calls, file downloads and uploads all go through it.
 */
export async function apiFetch(path: string, options: FetchOptions = {}): Promise<Response> {
  const foreground = !options.background;
  if (foreground) changeInflight(1);
  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method: options.method ?? (options.json === undefined && options.rawBody === undefined ? 'GET' : 'POST'),
        headers: buildHeaders(options),
        body: options.json === undefined ? options.rawBody : JSON.stringify(options.json),
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(null, null, error instanceof Error ? error.message : String(error));
    }
    if (response.ok) return response;

    const body = asErrorBody(await readBody(response));
    // A gateway error page without our JSON means the API itself is not answering.
    if (!body && response.status >= 502 && response.status <= 504) throw new ApiError(null, null, response.statusText);
    const retryAfter = Number(response.headers.get('Retry-After'));
    const error = new ApiError(
      response.status,
      body,
      body?.error ?? body?.msg ?? (response.statusText || `HTTP ${response.status}`),
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
    if (error.isInvalidToken) {
      clearSession();
      onInvalidToken();
    }
    throw error;
  } finally {
    if (foreground) changeInflight(-1);
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { body, ...rest } = options;
  const response = await apiFetch(path, { ...rest, json: body });
  return (await readBody(response)) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
};
