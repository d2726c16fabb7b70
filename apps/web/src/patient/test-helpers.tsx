import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import type { RenderableForm } from '@pathwell/contracts/forms';
import type { Draft, LinkStatusResponse } from '@pathwell/contracts/patient-links';
import { clearLookups } from './api';
import { patientI18n } from './i18n';
import { PatientApp } from './patient-app';

export const TOKEN = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
const PATH = `/customform/${TOKEN}/surveryform`;
export const RESPONSE_ID = '9b2f7c1e-2a4d-4b8e-9f00-1234567890ab';

export const sampleForm: RenderableForm = {
  kind: 'custom',
  formCode: null,
  customFormId: '5d2f7c1e-2a4d-4b8e-9f00-1234567890ab',
  version: '1',
  title: { en: 'Health check', es: 'Control de salud' },
  languages: ['en', 'es'],
  sections: [],
  credit: { en: 'Form by Riverside', es: 'Formulario de Riverside' },
  questions: [
    {
      id: 'smoke',
      type: 2,
      text: { en: 'Do you smoke?', es: '¿Fuma?' },
      required: true,
      options: [
        { value: 1, label: { en: 'Yes', es: 'Sí' } },
        { value: 2, label: { en: 'No', es: 'No' } },
      ],
    },
    {
      id: 'perDay',
      type: 17,
      text: { en: 'How many cigarettes a day?', es: '¿Cuántos cigarrillos al día?' },
      required: true,
      min: 1,
      max: 100,
      showWhen: { questionId: 'smoke', equals: 1 },
    },
    {
      id: 'mood',
      type: 3,
      text: { en: 'How is your mood?', es: '¿Cómo está su ánimo?' },
      required: true,
      options: [
        { value: 0, label: { en: 'Bad', es: 'Malo' } },
        { value: 1, label: { en: 'Fair', es: 'Regular' } },
        { value: 2, label: { en: 'Good', es: 'Bueno' } },
      ],
    },
    { id: 'notes', type: 1, text: { en: 'Anything else?', es: '¿Algo más?' }, required: false },
  ],
};

export function statusBody(overrides: Partial<LinkStatusResponse> = {}): LinkStatusResponse {
  return {
    status: 'active',
    clinicName: 'Riverside Spine & Pain',
    formTitle: { en: 'Health check', es: 'Control de salud' },
    languages: ['en', 'es'],
    suggestedLanguage: 'en',
    ...overrides,
  };
}

type Reply = { status?: number; body?: unknown } | 'network';

type PatientFake = {
  status?: Reply;
  verify?: Reply[];
  emailCode?: Reply[];
  verifyCode?: Reply[];
  accessRequest?: Reply[];
  form?: RenderableForm;
  draft?: Draft | null;
  draftSave?: Reply[];
  submit?: Reply[];
  enums?: Record<string, unknown>;
};

type Call = { method: string; path: string; body: unknown; headers: Headers };

/**
 * A fake of the open patient-link API: each endpoint answers from its list in turn (the last answer
 * repeats), and every call is recorded.
 */
export function fakePatientApi(fake: PatientFake = {}) {
  const calls: Call[] = [];
  const counters = new Map<string, number>();
  const next = (name: string, replies: Reply[] | undefined, fallback: Reply): Reply => {
    if (!replies?.length) return fallback;
    const index = counters.get(name) ?? 0;
    counters.set(name, index + 1);
    return replies[Math.min(index, replies.length - 1)]!;
  };
  const json = (status: number, body: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname + url.search, body, headers: new Headers(init?.headers) });
    const base = `/api/patient-links/${TOKEN}`;
    let reply: Reply;
    if (method === 'GET' && url.pathname === `${base}/status`) reply = fake.status ?? { body: statusBody() };
    else if (method === 'POST' && url.pathname === `${base}/verify`)
      reply = next('verify', fake.verify, { body: { accessToken: 'access-1', expiresAt: '2030-01-01T00:00:00Z' } });
    else if (method === 'POST' && url.pathname === `${base}/emailcode`)
      reply = next('emailCode', fake.emailCode, { body: { sentTo: 'm***@example.test', expiresInMinutes: 10 } });
    else if (method === 'POST' && url.pathname === `${base}/verifycode`)
      reply = next('verifyCode', fake.verifyCode, { body: { accessToken: 'access-code', expiresAt: '2030-01-01T00:00:00Z' } });
    else if (method === 'POST' && url.pathname === `${base}/access-request`)
      reply = next('accessRequest', fake.accessRequest, { body: { received: true } });
    else if (method === 'GET' && url.pathname === `${base}/form`)
      reply = {
        body: {
          patientFirstName: 'Maria',
          clinicName: 'Riverside Spine & Pain',
          form: fake.form ?? sampleForm,
          draft: fake.draft ?? null,
        },
      };
    else if (method === 'PUT' && url.pathname === `${base}/draft`) reply = next('draft', fake.draftSave, { status: 204 });
    else if (method === 'POST' && url.pathname === `${base}/submit`)
      reply = next('submit', fake.submit, { body: { message: 'Form Response added successfully', responseId: RESPONSE_ID } });
    else if (method === 'GET' && url.pathname === '/api/enums' && fake.enums?.[url.searchParams.get('type') ?? ''])
      reply = { body: fake.enums[url.searchParams.get('type')!] };
    else reply = { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
    if (reply === 'network') throw new TypeError('Failed to fetch');
    const status = reply.status ?? 200;
    return json(status, status === 204 ? undefined : reply.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (suffix: string, method?: string) =>
      calls.filter((call) => call.path.endsWith(suffix) && (!method || call.method === method)),
  };
}

export function renderPatient(pathname = PATH, retryDelaysMs = [0, 0]) {
  clearLookups();
  void patientI18n.changeLanguage('en');
  return render(
    <I18nextProvider i18n={patientI18n}>
      <PatientApp pathname={pathname} retryDelaysMs={retryDelaysMs} />
    </I18nextProvider>,
  );
}
