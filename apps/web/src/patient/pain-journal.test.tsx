import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PainJournalSaved, PainJournalView } from '@pathwell/contracts/pain-journal';
import { parsePatientPath } from './routes';
import { renderPatient, TOKEN } from './test-helpers';

const PATIENT = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
const PAGE = `/periodicvas/${PATIENT}/${TOKEN}`;
const API = `/api/pain-journal/${TOKEN}`;

type Reply = { status: number; body?: unknown } | 'network';
function fakeFetch(replies: { view: Reply; record?: Reply[] }) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  let records = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({ method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      let reply: Reply = { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
      if (path === API && method === 'GET') reply = replies.view;
      if (path === API && method === 'POST' && replies.record) {
        reply = replies.record[Math.min(records, replies.record.length - 1)]!;
        records += 1;
      }
      if (reply === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body ?? {}), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

const view = (overrides: Partial<PainJournalView> = {}): Reply => ({
  status: 200,
  body: {
    clinicName: 'Riverside Spine & Pain',
    language: 'en',
    status: 'active',
    lastEntries: [{ date: '2026-03-02', score: 8 }],
    ...overrides,
  } satisfies PainJournalView,
});
const saved = (overrides: Partial<PainJournalSaved> = {}): Reply => ({
  status: 201,
  body: {
    date: '2026-03-05',
    score: 7,
    replaced: false,
    lastEntries: [
      { date: '2026-03-02', score: 8 },
      { date: '2026-03-05', score: 7 },
    ],
    ...overrides,
  } satisfies PainJournalSaved,
});

describe('the pain journal page', () => {
  it('is read from /periodicvas/{patientId}/{token}', () => {
    expect(parsePatientPath(PAGE)).toEqual({ kind: 'painJournal', patientId: PATIENT, journalToken: TOKEN, token: '' });
    expect(parsePatientPath(`/periodicvas/${PATIENT}`)).toBeNull();
  });

  it('offers 0–10 as large choices with words for both ends, sends the score and note, and thanks with the last days', async () => {
    const calls = fakeFetch({ view: view(), record: [saved()] });
    renderPatient(PAGE);
    const scale = await screen.findByRole('radiogroup', { name: 'How much pain do you have right now?' });
    expect(within(scale).getAllByRole('radio')).toHaveLength(11);
    expect(within(scale).getByRole('radio', { name: '0, no pain' })).toBeInTheDocument();
    expect(within(scale).getByRole('radio', { name: '10, worst possible pain' })).toBeInTheDocument();
    expect(screen.getByText('Riverside Spine & Pain')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your pain today');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a number from 0 to 10 first.');
    await user.click(within(scale).getByRole('radio', { name: '7' }));
    await user.type(screen.getByLabelText(/Anything you want the clinic to know/), 'Better after the injection');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    const thanks = await screen.findByTestId('pain-journal-thanks');
    expect(thanks).toHaveTextContent('Riverside Spine & Pain has your answer');
    expect(within(thanks).getByTestId('pain-journal-recent')).toHaveTextContent('7 out of 10');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toEqual([
      {
        method: 'POST',
        path: API,
        body: { score: 7, note: 'Better after the injection', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      },
    ]);
    expect(sessionStorage.getItem(`painJournal.pending.${TOKEN}`)).toBeNull();
  });

  it('keeps the answer while the network is down and sends it again with the same key', async () => {
    const calls = fakeFetch({ view: view(), record: ['network', 'network', saved({ score: 4 })] });
    renderPatient(PAGE);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: '4' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByTestId('pain-journal-thanks')).toBeInTheDocument();
    const keys = calls
      .filter((call) => call.method === 'POST')
      .map((call) => (call.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('shows that it keeps trying while offline, with the chosen score stored on the phone', async () => {
    fakeFetch({ view: view(), record: ['network'] });
    renderPatient(PAGE, [60_000]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: '9' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByTestId('pain-journal-offline')).toHaveTextContent('Your answer is kept on this phone');
    const stored = JSON.parse(sessionStorage.getItem(`painJournal.pending.${TOKEN}`)!) as { score: number; sending: boolean };
    expect(stored).toMatchObject({ score: 9, sending: true });
  });

  it('sends an answer left unsent by a closed page as soon as the page opens again', async () => {
    const key = '0f6c3a2e-1b2c-4d5e-8f90-123456789abc';
    sessionStorage.setItem(`painJournal.pending.${TOKEN}`, JSON.stringify({ score: 3, note: 'Walked', key, sending: true }));
    const calls = fakeFetch({ view: view(), record: [saved({ score: 3 })] });
    renderPatient(PAGE);
    expect(await screen.findByTestId('pain-journal-thanks')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ score: 3, note: 'Walked', idempotencyKey: key });
  });

  it("reads in the link's language and says when the link has expired", async () => {
    fakeFetch({ view: view({ status: 'expired', language: 'es', lastEntries: [] }) });
    renderPatient(PAGE);
    expect(await screen.findByTestId('pain-journal-expired')).toHaveTextContent('Este enlace ha caducado');
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
  });

  it('says so when the clinic revoked the link while the patient was answering', async () => {
    fakeFetch({ view: view(), record: [{ status: 410, body: { error: 'revoked', code: 'GONE', messageKey: 'linkGone' } }] });
    renderPatient(PAGE);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: '5' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByTestId('pain-journal-revoked')).toHaveTextContent('This link is no longer active');
    await waitFor(() => expect(sessionStorage.getItem(`painJournal.pending.${TOKEN}`)).toBeNull());
  });

  it('says the page was not found for an unknown link', async () => {
    fakeFetch({ view: { status: 404, body: { error: 'Link not found', code: 'NOT_FOUND' } } });
    renderPatient(PAGE);
    expect(await screen.findByTestId('pain-journal-not-found')).toBeInTheDocument();
  });
});
