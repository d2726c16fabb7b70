import { vi } from 'vitest';
import type { SessionContext } from '@pathwell/contracts/session';

export type FakeRoute = {
  method?: string;
  path: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Throw like fetch does when the network is down. */
  networkError?: boolean;
};

/** `query` keeps the query string, so a test can see a value sent there (an archive reason). */
export type FakeCall = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers };

/**
 * Replaces `fetch` with a table of canned answers, matched by method and path (first match wins),
 * and records every call. Unknown calls answer 404 so a test sees what it forgot.
 */
export function fakeApi(routes: FakeRoute[]) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, query: url.searchParams, body, headers: new Headers(init?.headers) });
    const route = routes.find((candidate) => (candidate.method ?? 'GET') === method && candidate.path === url.pathname);
    if (!route)
      return new Response(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    if (route.networkError) throw new TypeError('Failed to fetch');
    const status = route.status ?? 200;
    if (status === 204) return new Response(null, { status });
    return new Response(JSON.stringify(route.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json', ...route.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const ids = {
  admin: '11111111-1111-4111-8111-111111111111',
  doctor: '22222222-2222-4222-8222-222222222222',
  clinic: '33333333-3333-4333-8333-333333333333',
  otherClinic: '44444444-4444-4444-8444-444444444444',
};

type SessionOverrides = Partial<Omit<SessionContext, 'user'>> & { user?: Partial<SessionContext['user']> };

export function makeSession(overrides: SessionOverrides = {}): SessionContext {
  const { user, ...rest } = overrides;
  return {
    user: {
      id: ids.admin,
      firstName: 'Alex',
      lastName: 'Carter',
      email: 'admin@pathwell.demo',
      profileImage: null,
      role: 'Admin',
      isParent: false,
      isChild: false,
      twoFactorEnabled: false,
      ...user,
    },
    instance: { id: ids.clinic, name: 'Riverside Spine & Pain', logoUrl: null, timeZoneId: 'Etc/GMT+5', timeZoneOffsetHours: -5 },
    allClinics: false,
    clinics: [],
    idleTimeoutMinutes: 30,
    flags: {
      devicePartnerMode: false,
      programMode: false,
      portalPro: false,
      mainstay: false,
      campaignsEnabled: true,
      campaignOnly: false,
      providerAppointmentDashboard: true,
    },
    demoMode: true,
    ...rest,
  };
}
