import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SummaryPatients, SummaryReport } from '@pathwell/contracts/reports-summary';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { i18n } from '../../../lib/i18n';
import { DataSandbox } from './sandbox-page';

const patientId = '77777777-7777-4777-8777-777777777771';
const lumbarId = '77777777-7777-4777-8777-777777777772';

const report: SummaryReport = {
  dataType: 1,
  anchor: 'firstScore',
  cohortPatients: 12,
  computedAt: '2026-03-02T15:00:00.000Z',
  series: [
    {
      key: 'form-2',
      formCode: 2,
      maximum: 100,
      normalised: false,
      higherIsBetter: false,
      mcid: 10,
      mcidSource: 'Ostelo 2008',
      points: [
        {
          week: 0,
          patients: 12,
          mean: 44.5,
          sd: 10,
          ciLow: 38.15,
          ciHigh: 50.85,
          meanImprovement: 0,
          mcidReached: null,
          mcidPercent: null,
        },
        {
          week: 4,
          patients: 10,
          mean: 31.2,
          sd: 9,
          ciLow: 24.76,
          ciHigh: 37.64,
          meanImprovement: 12.4,
          mcidReached: 6,
          mcidPercent: 60,
        },
      ],
    },
  ],
};

const patients: SummaryPatients = {
  totalRecords: 1,
  pageNumber: 0,
  pageSize: 15,
  data: [
    {
      patientId,
      fullName: 'Ana Quintero',
      dateOfBirth: '1970-04-02',
      doctorName: 'Dr. Rivera',
      baselineDate: '2026-01-05',
      baselineScore: 46,
      scoreDate: '2026-02-02',
      score: 30,
      improvement: 16,
      reachedMcid: true,
    },
  ],
};

const page = <T,>(data: T[]) => ({ totalRecords: data.length, pageNumber: 0, pageSize: 999, data });

function optionRoutes(bmi = false): FakeRoute[] {
  return [
    { path: '/api/instancesettings/flags/bmifilter', body: { flag: 'bmifilter', key: 'showBmiFilterOnSandbox', enabled: bmi } },
    {
      path: '/api/pathways/options',
      body: { procedures: [{ id: lumbarId, name: 'Lumbar epidural injection' }], studyGroups: [], customForms: [] },
    },
    { path: '/api/studygroups', body: page([]) },
    { path: '/api/bodylocations', body: page([]) },
    { path: '/api/customfields', body: page([]) },
    { path: '/api/perioperativemessagetemplates', body: page([]) },
  ];
}

function renderSandbox() {
  return renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <DataSandbox />
    </SessionReactContext.Provider>,
    { extraRoutes: [{ path: '/patients/patientdashboard/:id', element: <p data-testid="patient-dashboard">dashboard</p> }] },
  );
}

async function pick(user: ReturnType<typeof userEvent.setup>, testId: string, option: string | RegExp) {
  const input = screen.getByTestId(testId);
  await user.click(input);
  // Every select keeps its list in the page: take the one this input controls.
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
  await user.keyboard('{Escape}');
}

async function runOdi(user: ReturnType<typeof userEvent.setup>) {
  await pick(user, 'sandbox-forms', /Oswestry/);
  await user.click(screen.getByTestId('sandbox-apply'));
  return screen.findByTestId('sandbox-table');
}

const { createObjectURL, revokeObjectURL } = URL;
afterEach(async () => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
  await i18n.changeLanguage('en');
});

describe('the data sandbox', () => {
  it('runs the report for the chosen form and the selected doctor, and shows the numbers in a table', async () => {
    localStorage.setItem('doctorId', ids.doctor);
    const { calls } = fakeApi([...optionRoutes(), { method: 'POST', path: '/api/reports/summary', body: report }]);
    renderSandbox();
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Data sandbox' })).toBeInTheDocument();
    expect(screen.getByTestId('sandbox-prompt')).toBeInTheDocument();

    // Without a form the contract's own check stops the request.
    await user.click(screen.getByTestId('sandbox-apply'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/reports/summary')).toBe(false);

    const table = await runOdi(user);
    const body = calls.find((call) => call.method === 'POST' && call.path === '/api/reports/summary')?.body;
    expect(body).toMatchObject({
      reportSummaryDataType: 1,
      formIds: [2],
      anchor: 'firstScore',
      visitMin: 0,
      visitMax: 24,
      ageMin: 0,
      ageMax: 100,
      bmiMin: null,
      randScoreMin: null,
      doctorId: ids.doctor,
      postDeploymentAppointments: false,
    });
    expect(within(table).getByText('Oswestry Disability Index (ODI): mean score by week')).toBeInTheDocument();
    const rows = within(table).getAllByTestId('sandbox-row');
    expect(rows[0]).toHaveTextContent('Baseline');
    expect(rows[0]).toHaveTextContent('44.5');
    expect(rows[0]).toHaveTextContent('38.2 to 50.9');
    expect(rows[1]).toHaveTextContent('Week 4');
    expect(rows[1]).toHaveTextContent('10');
    expect(rows[1]).toHaveTextContent('31.2');
    expect(rows[1]).toHaveTextContent('24.8 to 37.6');
    expect(rows[1]).toHaveTextContent('12.4');
    expect(rows[1]).toHaveTextContent('6 (60%)');
    expect(screen.getByTestId('sandbox-mcid-note')).toHaveTextContent('10 points (source: Ostelo 2008)');
    expect(screen.getByTestId('sandbox-cohort')).toHaveTextContent('12 patients matched the filters');
    expect(screen.queryByTestId('sandbox-normalised')).not.toBeInTheDocument();
  });

  it('says which filters to loosen when no patient matched', async () => {
    fakeApi([
      ...optionRoutes(),
      { method: 'POST', path: '/api/reports/summary', body: { ...report, cohortPatients: 0, series: [] } },
    ]);
    renderSandbox();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Patients' }));
    await user.type(screen.getByTestId('sandbox-patient-name'), 'Nobody');
    await pick(user, 'sandbox-forms', /Oswestry/);
    await user.click(screen.getByTestId('sandbox-apply'));
    expect(await screen.findByTestId('sandbox-empty')).toHaveTextContent('Try loosening these filters: patient name.');
  });

  it('shows the BMI filter only when the clinic turns it on', async () => {
    fakeApi(optionRoutes(false));
    const first = renderSandbox();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Patients' }));
    expect(await screen.findByTestId('sandbox-age')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('sandbox-bmi')).not.toBeInTheDocument());
    first.unmount();

    fakeApi(optionRoutes(true));
    renderSandbox();
    await user.click(await screen.findByRole('button', { name: 'Patients' }));
    expect(await screen.findByTestId('sandbox-bmi')).toHaveTextContent('BMI');
  });

  it('puts a 400 field error next to its filter, opening its section', async () => {
    fakeApi([
      ...optionRoutes(),
      {
        method: 'POST',
        path: '/api/reports/summary',
        status: 400,
        body: { error: 'This number is out of range', code: 'VALIDATION', fields: { ageMin: 'numberOutOfRange' } },
      },
    ]);
    renderSandbox();
    const user = userEvent.setup();
    await pick(user, 'sandbox-forms', /Oswestry/);
    await user.click(screen.getByTestId('sandbox-apply'));
    expect(await screen.findByTestId('sandbox-error')).toHaveTextContent('Some filters need correcting');
    expect(await within(screen.getByTestId('sandbox-age')).findByText('This number is out of range')).toBeInTheDocument();
  });

  it('shows an error with a retry when the report fails', async () => {
    const { calls } = fakeApi([
      ...optionRoutes(),
      { method: 'POST', path: '/api/reports/summary', status: 500, body: { error: 'Boom', code: 'INTERNAL' } },
    ]);
    renderSandbox();
    const user = userEvent.setup();
    await pick(user, 'sandbox-forms', /Oswestry/);
    await user.click(screen.getByTestId('sandbox-apply'));
    expect(await screen.findByTestId('sandbox-error')).toHaveTextContent('The report could not be run.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/reports/summary')).toHaveLength(2));
  });

  it('lists the patients behind a point, linked to their dashboards', async () => {
    const { calls } = fakeApi([
      ...optionRoutes(),
      { method: 'POST', path: '/api/reports/summary', body: report },
      { method: 'POST', path: '/api/reports/summary/patients', body: patients },
    ]);
    renderSandbox();
    const user = userEvent.setup();
    await runOdi(user);
    await user.click(screen.getByRole('button', { name: /^Patients at Week 4/ }));
    const drill = await screen.findByTestId('sandbox-drill');
    const row = within(drill).getByTestId('sandbox-drill-row');
    expect(row).toHaveTextContent('01/05/2026');
    expect(row).toHaveTextContent('46');
    expect(row).toHaveTextContent('02/02/2026');
    expect(row).toHaveTextContent('16');
    expect(row).toHaveTextContent('Yes');
    expect(within(row).getByRole('link', { name: 'Ana Quintero' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    const body = calls.find((call) => call.path === '/api/reports/summary/patients')?.body;
    expect(body).toMatchObject({ seriesKey: 'form-2', week: 4, pageNumber: 0, pageSize: 15, filter: { formIds: [2] } });
  });

  it('exports the applied filter at the chosen level and format, in the user language', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    const { calls } = fakeApi([
      ...optionRoutes(),
      { method: 'POST', path: '/api/reports/summary', body: report },
      { method: 'POST', path: '/api/reports/summary/export', body: {} },
    ]);
    renderSandbox();
    const user = userEvent.setup();
    expect(await screen.findByTestId('sandbox-export')).toBeDisabled();
    await runOdi(user);
    await user.click(screen.getByTestId('sandbox-export'));
    await user.click(await screen.findByRole('menuitem', { name: 'Patients (Excel)', hidden: true }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const body = calls.find((call) => call.path === '/api/reports/summary/export')?.body;
    expect(body).toMatchObject({ level: 'patients', format: 'xlsx', language: 'en', filter: { formIds: [2] } });
  });

  it('speaks Spanish', async () => {
    fakeApi([...optionRoutes(), { method: 'POST', path: '/api/reports/summary', body: report }]);
    renderSandbox();
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Entorno de datos' })).toBeInTheDocument();
    await pick(user, 'sandbox-forms', /Índice de Discapacidad de Oswestry/);
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    const rows = await screen.findAllByTestId('sandbox-row');
    expect(rows[0]).toHaveTextContent('Inicial');
    expect(rows[1]).toHaveTextContent('Semana 4');
    expect(rows[1]).toHaveTextContent('31,2');
    expect(screen.getByRole('columnheader', { name: 'Mejora media' })).toBeInTheDocument();
  });
});
