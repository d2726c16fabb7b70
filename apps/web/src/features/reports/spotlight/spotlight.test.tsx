import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SpotlightPage as SpotlightPageData } from '@pathwell/contracts/reports-spotlight';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { setDoctorId } from '../../../lib/session-storage';
import { renderAt } from '../../../test/render';
import { SpotlightPage } from './spotlight-page';

const patientId = '77777777-7777-4777-8777-777777777771';
const referrerId = '77777777-7777-4777-8777-777777777772';

const page: SpotlightPageData = {
  totalRecords: 1,
  pageNumber: 0,
  pageSize: 15,
  measure: { formCode: null, mcid: 2, mcidSource: 'Farrar JT et al.', higherIsBetter: false, maximum: 10 },
  data: [
    {
      patientId,
      fullName: 'Ana Quintero',
      referringProvider: 'Dr. Ada Spotlight',
      baseline: { date: '2026-01-05', score: 8 },
      latest: { date: '2026-02-16', score: 3 },
      improvement: 5,
      improvementInMcids: 2.5,
      procedures: [{ name: 'Lumbar ESI', performedOn: '2026-01-10', kind: 'injection' }],
      successStoryShared: true,
      successStory: 'I walk again.',
    },
  ],
};

const referrals = {
  totalRecords: 1,
  totalExact: true,
  pageNumber: 0,
  pageSize: 999,
  data: [{ id: referrerId, name: 'Dr. Ada Spotlight', attributes: {}, isActive: true, sortOrder: 0 }],
};

beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setDoctorId(null);
});

const renderPage = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <SpotlightPage />
    </SessionReactContext.Provider>,
  );

describe('the patient spotlight page', () => {
  it('lists improved patients with baseline, latest, improvement (positive = better), procedures and the story badge', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/reports/patientsspotlight', body: page },
      { path: '/api/referrals', body: referrals },
    ]);
    renderPage();
    const row = await screen.findByTestId('spotlight-row');
    expect(within(row).getByRole('link', { name: 'Ana Quintero' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    expect(row).toHaveTextContent('Dr. Ada Spotlight');
    expect(row).toHaveTextContent('01/05/2026');
    expect(row).toHaveTextContent('02/16/2026');
    expect(within(row).getByText('+5')).toBeInTheDocument();
    expect(row).toHaveTextContent('2.5 × MCID');
    expect(row).toHaveTextContent('01/10/2026 · Lumbar ESI');
    expect(within(row).getByTestId('spotlight-story-badge')).toHaveTextContent('Story shared');
    expect(screen.getByTestId('report-conventions')).toHaveTextContent('Positive means better, negative means worse');
    expect(screen.getByTestId('spotlight-summary')).toHaveTextContent(
      '1 patient improved by at least 1 × MCID (2 points, lower is better).',
    );
    const body = calls.find((call) => call.path === '/api/reports/patientsspotlight')!.body;
    expect(body).toMatchObject({ improvementFactor: 1, formCode: null, referringProviderIds: [], pageSize: 15, pageNumber: 0 });
  });

  it('sends the chosen measure, factor and names, and the selected doctor', async () => {
    setDoctorId('22222222-2222-4222-8222-222222222222');
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/reports/patientsspotlight', body: { ...page, totalRecords: 0, data: [] } },
      { path: '/api/referrals', body: referrals },
    ]);
    renderPage();
    expect(await screen.findByTestId('spotlight-empty')).toHaveTextContent('No patient improved this much yet.');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Measure' }));
    await user.click(await screen.findByRole('option', { name: /Oswestry/, hidden: true }));
    const factor = screen.getByRole('textbox', { name: /Improvement factor/ });
    await user.clear(factor);
    await user.type(factor, '2');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Quint');
    await user.click(screen.getByTestId('spotlight-search'));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/reports/patientsspotlight').at(-1)!.body).toMatchObject({
        formCode: 2,
        improvementFactor: 2,
        patientLastName: 'Quint',
        doctorId: '22222222-2222-4222-8222-222222222222',
      }),
    );
  });

  it('records a success story and the patient’s consent to share it', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/reports/patientsspotlight', body: page },
      { path: '/api/referrals', body: referrals },
      {
        method: 'PATCH',
        path: '/api/patients/hassuccessstorybeenshared',
        body: { patientId, successStory: 'I walk again every day.', successStorySharedAt: null },
      },
    ]);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Success story of Ana Quintero' }));
    const text = await screen.findByTestId('spotlight-story-text');
    expect(text).toHaveValue('I walk again.');
    await user.clear(text);
    await user.type(text, 'I walk again every day.');
    await user.click(screen.getByTestId('spotlight-story-shared'));
    await user.click(screen.getByTestId('spotlight-story-save'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
        patientId,
        shared: false,
        story: 'I walk again every day.',
      }),
    );
  });

  it('downloads the PDF with the bearer fetch', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/reports/patientsspotlight', body: page },
      { path: '/api/referrals', body: referrals },
      {
        path: '/api/patients/patientsspotlightpdf',
        body: {},
        headers: { 'Content-Disposition': 'attachment; filename="x.pdf"' },
      },
    ]);
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    URL.revokeObjectURL = vi.fn();
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'PDF for Ana Quintero' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/api/patients/patientsspotlightpdf')).toBe(true));
    const call = calls.find((candidate) => candidate.path === '/api/patients/patientsspotlightpdf')!;
    expect(call.query.get('patientId')).toBe(patientId);
    expect(call.query.get('language')).toBe('en');
    expect(call.query.has('formCode')).toBe(false);
  });

  it('offers a retry when the report fails', async () => {
    fakeApi([
      { method: 'POST', path: '/api/reports/patientsspotlight', status: 500, body: { error: 'Server error', code: 'INTERNAL' } },
      { path: '/api/referrals', body: referrals },
    ]);
    renderPage();
    expect(await screen.findByTestId('spotlight-error', {}, { timeout: 4000 })).toHaveTextContent(
      'The spotlight could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
