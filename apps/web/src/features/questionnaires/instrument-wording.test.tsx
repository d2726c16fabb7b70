import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { InstrumentSummary } from '@pathwell/contracts/form-responses';
import { SessionReactContext } from '../../app/session-context';
import { Component as InstrumentsPage } from '../../routes/questionnaires/instruments';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const instrument = (overrides: Partial<InstrumentSummary>): InstrumentSummary => ({
  formCode: 11,
  slug: 'phq9',
  name: 'PHQ-9',
  version: 'PHQ-9',
  wording: 'shipped',
  languages: ['en', 'es'],
  importedForClinic: false,
  importedAt: null,
  ...overrides,
});

const catalogue = {
  data: [
    instrument({ formCode: 2, slug: 'odi', name: 'ODI', version: 'ODI 2.1a', wording: 'licensed', languages: ['en'] }),
    instrument({
      formCode: 3,
      slug: 'ndi',
      name: 'NDI',
      version: 'NDI',
      wording: 'licensed',
      languages: ['en'],
      importedForClinic: true,
      importedAt: '2025-03-01T15:00:00.000Z',
    }),
    instrument({}),
  ],
};

const renderPage = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role: 'SystemManager' } })}>
      <InstrumentsPage />
    </SessionReactContext.Provider>,
  );

const wordingFile = (text: string) => new File([text], 'odi.json', { type: 'application/json' });

describe('questionnaire wording page', () => {
  it('lists each form with its wording status; only licensed forms offer import, only imported ones removal', async () => {
    fakeApi([{ path: '/api/instruments', body: catalogue }]);
    renderPage();
    const rows = await screen.findAllByTestId('instrument-row');
    expect(rows[0]).toHaveTextContent('Oswestry Disability Index (ODI)');
    expect(rows[0]).toHaveTextContent('Neutral labels');
    expect(within(rows[0]!).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Licensed wording imported');
    expect(rows[1]).toHaveTextContent('Imported 03/01/2025');
    expect(
      within(rows[1]!).getByRole('button', { name: 'Remove the wording of Neck Disability Index (NDI)' }),
    ).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Included');
    expect(rows[2]).toHaveTextContent('English, Spanish');
    expect(within(rows[2]!).queryByRole('button', { name: /Import/ })).not.toBeInTheDocument();
  });

  it('sends the parsed file and shows the field errors the server finds in it', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi([
      { path: '/api/instruments', body: catalogue },
      {
        method: 'PUT',
        path: '/api/instruments/2/wording',
        status: 400,
        body: {
          error: 'Please check the highlighted fields.',
          code: 'VALIDATION',
          fields: { 'questions.3.options': 'optionInvalid', source: 'required' },
        },
      },
    ]);
    const { container } = renderPage();
    await screen.findAllByTestId('instrument-row');
    const definition = { formCode: 2, languages: ['en'], questions: [{ id: 'q1', text: { en: 'Pain intensity' }, options: [] }] };
    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, wordingFile(JSON.stringify(definition)));

    const alert = await screen.findByTestId('wording-import-error');
    expect(alert).toHaveTextContent('The wording for Oswestry Disability Index (ODI) was not imported.');
    expect(alert).toHaveTextContent('questions.3.options');
    expect(alert).toHaveTextContent('source: This field is required');
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual(definition);
  });

  it('refuses a file that is not JSON without calling the server', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi([{ path: '/api/instruments', body: catalogue }]);
    const { container } = renderPage();
    await screen.findAllByTestId('instrument-row');
    await user.upload(container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]')!, wordingFile('{ not json'));
    expect(await screen.findByTestId('wording-import-error')).toHaveTextContent('The file is not valid JSON.');
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('removes imported wording after confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi([
      { path: '/api/instruments', body: catalogue },
      { method: 'DELETE', path: '/api/instruments/3/wording', status: 204 },
    ]);
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove the wording of Neck Disability Index (NDI)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove imported wording' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/instruments/3/wording')).toBe(true),
    );
  });
});
