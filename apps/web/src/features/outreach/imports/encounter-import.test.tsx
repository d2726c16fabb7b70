import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EncounterImportDetail, EncounterImportSummary, EncounterPreview } from '@pathwell/contracts/encounter-imports';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { EncounterImport } from './encounter-import';

const importId = '55555555-5555-4555-8555-555555555551';
const headers = ['MRN', 'DOS', 'Provider', 'Dx', 'CPT', 'Notes'];
const preview: EncounterPreview = {
  fileName: 'encounters.csv',
  headers,
  sampleRows: [
    ['EXT-1', '2024-03-05', 'Daniela Ortiz', 'M54.16', '64483', ''],
    ['EXT-2', '2024-03-06', 'Daniela Ortiz', 'M51.16', '', 'follow-up'],
  ],
  // "DOS" was not recognised: the person has to pick the visit date's column.
  suggestedMapping: {
    externalPatientId: 'MRN',
    firstName: null,
    lastName: null,
    dateOfBirth: null,
    visitDate: null,
    provider: 'Provider',
    diagnosisCodes: 'Dx',
    procedureCodes: 'CPT',
    externalVisitId: null,
  },
  rowCount: 12_000,
};

const summary: EncounterImportSummary = {
  id: importId,
  fileName: 'encounters.csv',
  status: 'running',
  totalRows: 12_000,
  processedRows: 3_000,
  importedRows: 2_990,
  duplicateRows: 4,
  errorRows: 6,
  createdByName: 'Alex Carter',
  createdAt: '2026-01-05T15:00:00.000Z',
  finishedAt: null,
};
const running: EncounterImportDetail = { ...summary, mapping: {}, failure: null, errors: [] };
const done: EncounterImportDetail = {
  ...running,
  status: 'done',
  processedRows: 12_000,
  importedRows: 11_990,
  finishedAt: '2026-01-05T15:02:00.000Z',
  errors: [
    { row: 4, field: 'visitDate', message: 'dateInvalid' },
    { row: 9, field: 'externalPatientId', message: 'importPatientNotFound' },
  ],
};

function routes(detail: { current: EncounterImportDetail }, log: EncounterImportSummary[] = []): FakeRoute[] {
  const detailRoute: FakeRoute = { path: `/api/encounterimports/${importId}`, body: detail.current };
  Object.defineProperty(detailRoute, 'body', { get: () => detail.current });
  return [
    { method: 'POST', path: '/api/encounterimports/preview', body: preview },
    { method: 'POST', path: '/api/encounterimports', status: 202, body: { id: importId } },
    { path: '/api/encounterimports', body: { data: log } },
    detailRoute,
  ];
}

const renderImport = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <EncounterImport />
    </SessionReactContext.Provider>,
  );

async function chooseFile(user: ReturnType<typeof userEvent.setup>) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  await user.upload(input, new File(['MRN,DOS\nEXT-1,2024-03-05\n'], 'encounters.csv', { type: 'text/csv' }));
}

async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  const box = screen.getByRole('combobox', { name: label });
  await user.click(box);
  const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
  await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

describe('the encounter import', () => {
  it('previews the file, asks for the missing visit date column, starts the import and follows it to the row errors', async () => {
    const detail = { current: running };
    const { calls, fetchMock } = fakeApi(routes(detail));
    renderImport();
    const user = userEvent.setup();
    expect(await screen.findByTestId('import-log-empty')).toHaveTextContent('No encounter file has been imported yet.');
    await chooseFile(user);

    const mapping = await screen.findByTestId('import-mapping');
    expect(mapping).toHaveTextContent('encounters.csv: 12000 rows.');
    expect(screen.getByTestId('mapping-externalPatientId')).toHaveValue('MRN');
    expect(screen.getByTestId('mapping-diagnosisCodes')).toHaveValue('Dx');
    const sample = screen.getByTestId('import-sample');
    expect(within(sample).getAllByRole('row')).toHaveLength(3);
    expect(sample).toHaveTextContent('follow-up');

    // Without a visit date column nothing is sent.
    await user.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/api/encounterimports')).toHaveLength(0);

    await pick(user, 'Visit date', 'DOS');
    await user.click(screen.getByTestId('import-start'));
    const progress = await screen.findByTestId('import-progress');
    const started = fetchMock.mock.calls.find(
      ([url, init]) => String(url) === '/api/encounterimports' && (init as RequestInit | undefined)?.method === 'POST',
    )!;
    const sent = (started[1] as RequestInit).body as FormData;
    expect(JSON.parse(String(sent.get('mapping')))).toMatchObject({
      externalPatientId: 'MRN',
      visitDate: 'DOS',
      diagnosisCodes: 'Dx',
    });
    expect((sent.get('file') as File).name).toBe('encounters.csv');

    expect(within(progress).getByTestId('import-status')).toHaveTextContent('Importing');
    expect(within(progress).getByTestId('import-progress-text')).toHaveTextContent('3,000 of 12,000 rows read');
    expect(within(progress).getByTestId('import-progress-bar')).toBeInTheDocument();

    // The job finishes: the next poll shows the counts and the rows that were not imported.
    detail.current = done;
    await waitFor(() => expect(within(progress).getByTestId('import-status')).toHaveTextContent('Finished'), { timeout: 5000 });
    expect(within(progress).getByTestId('import-counts')).toHaveTextContent('11,990 visits imported');
    expect(within(progress).getByTestId('import-counts')).toHaveTextContent('4 duplicates skipped');
    expect(within(progress).getByTestId('import-counts')).toHaveTextContent('6 rows with a problem');
    const errorRows = within(progress).getAllByTestId('import-error-row');
    expect(errorRows[0]).toHaveTextContent('4Visit dateDate must be MM/DD/YYYY');
    expect(errorRows[1]).toHaveTextContent('9Patient external idNo patient matches this row');
    expect(progress).toHaveTextContent('the first 2 of 6');
  }, 30_000);

  it('shows why a file could not be read, and lets the person choose another', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/encounterimports/preview',
        status: 400,
        body: { error: 'x', code: 'VALIDATION', messageKey: 'csvUnreadable', fields: { file: 'csvUnreadable' } },
      },
      { path: '/api/encounterimports', body: { data: [] } },
    ]);
    renderImport();
    const user = userEvent.setup();
    await chooseFile(user);
    expect(await screen.findByTestId('import-read-error')).toHaveTextContent('The file is not a readable CSV with a header row');
    expect(screen.queryByTestId('import-mapping')).not.toBeInTheDocument();
  });

  it('lists earlier imports and opens one with its progress', async () => {
    const detail = { current: done };
    fakeApi(routes(detail, [{ ...summary, status: 'done', importedRows: 11_990, processedRows: 12_000 }]));
    renderImport();
    const user = userEvent.setup();
    const row = await screen.findByTestId('import-log-row');
    expect(row).toHaveTextContent('encounters.csv');
    expect(row).toHaveTextContent('Alex Carter');
    expect(row).toHaveTextContent('Finished');
    expect(row).toHaveTextContent('11,990');
    await user.click(within(row).getByRole('button', { name: 'Details of encounters.csv' }));
    expect(await screen.findByTestId('import-progress')).toHaveTextContent('12,000 of 12,000 rows read');
  });
});
