import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PerformancePatients, PerformanceReport } from '@pathwell/contracts/reports-performance';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, ids, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { i18n } from '../../../lib/i18n';
import { PerformanceMeasures } from './performance-page';

const REPORT = '/api/reports/patientsperformancemeasure';
const patientId = '77777777-7777-4777-8777-777777777781';

const report: PerformanceReport = {
  window: { from: '2026-03-01T05:00:00.000Z', to: '2026-03-02T05:00:00.000Z', timeZone: 'Etc/GMT+5' },
  computedAt: '2026-03-01T15:00:00.000Z',
  measures: [
    { key: 'baselinePro', numerator: 3, denominator: 4, exclusions: 2, rate: 0.75 },
    { key: 'followUpPro', numerator: 2, denominator: 3, exclusions: 1, rate: 2 / 3 },
    { key: 'mcidImprovement', numerator: 1, denominator: 2, exclusions: 1, rate: 0.5 },
    {
      key: 'painChange',
      numerator: 2,
      denominator: 3,
      exclusions: 1,
      rate: 2 / 3,
      median: 3,
      q1: 1,
      q3: 3.5,
      n: 3,
      improvedShare: 2 / 3,
    },
  ],
  perForm: [
    {
      formCode: 2,
      mcid: 10,
      mcidSource: 'Ostelo 2008',
      higherIsBetter: false,
      numerator: 0,
      denominator: 1,
      exclusions: 1,
      rate: 0,
    },
    { formCode: 3, mcid: 10, mcidSource: 'Vernon', higherIsBetter: false, numerator: 2, denominator: 2, exclusions: 0, rate: 1 },
  ],
};

const emptyReport: PerformanceReport = {
  ...report,
  measures: report.measures.map((measure) => ({ ...measure, numerator: 0, denominator: 0, exclusions: 0, rate: null })),
};

const patients: PerformancePatients = {
  totalRecords: 1,
  totalExact: true,
  rows: [
    {
      patientId,
      fullName: 'Ana Quintero',
      birthDate: '1970-04-02',
      doctor: 'Dr. Rivera',
      excluded: false,
      met: true,
      formCode: 2,
      anchorAt: '2026-03-01T15:00:00.000Z',
      firstScore: null,
      followAt: '2026-02-27T15:00:00.000Z',
      latestScore: 50,
      improvement: null,
    },
  ],
};

function renderPage() {
  return renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <PerformanceMeasures />
    </SessionReactContext.Provider>,
    { extraRoutes: [{ path: '/patients/patientdashboard/:id', element: <p data-testid="patient-dashboard">dashboard</p> }] },
  );
}

afterEach(async () => {
  localStorage.removeItem('doctorId');
  await i18n.changeLanguage('en');
});

describe('performance measures', () => {
  it('loads today (the section 9 default) for the selected doctor and shows one card per measure', async () => {
    localStorage.setItem('doctorId', ids.doctor);
    const { calls } = fakeApi([{ method: 'POST', path: REPORT, body: report }]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Performance measures' })).toBeInTheDocument();
    const baseline = await screen.findByTestId('measure-baselinePro');
    expect(calls.find((call) => call.path === REPORT)?.body).toEqual({ dateFilter: 1, doctorId: ids.doctor });
    expect(screen.getByRole('combobox', { name: 'Date range' })).toHaveValue('Today');

    expect(within(baseline).getByRole('heading', { name: 'Baseline questionnaire at the first visit' })).toBeInTheDocument();
    expect(within(baseline).getByTestId('measure-baselinePro-rate')).toHaveTextContent('75%');
    expect(within(baseline).getByText('3 of 4')).toBeInTheDocument();
    const counts = within(baseline).getByRole('table', { name: /counts/ });
    expect(within(counts).getByRole('row', { name: /Excluded/ })).toHaveTextContent('2');

    const pain = screen.getByTestId('measure-painChange');
    expect(within(pain).getByTestId('measure-painChange-median')).toHaveTextContent(
      'Median improvement 3 points (IQR 1 to 3.5), n = 3',
    );
    const perForm = screen.getByTestId('performance-per-form');
    expect(within(perForm).getByRole('row', { name: /NDI/ })).toHaveTextContent('2 of 2');
    expect(within(perForm).getByRole('row', { name: /ODI/ })).toHaveTextContent('0 of 1');
  });

  it('checks a custom range before asking, then sends its dates', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: REPORT, body: report }]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByTestId('measure-baselinePro');
    const preset = screen.getByRole('combobox', { name: 'Date range' });
    await user.click(preset);
    const listbox = await waitFor(() => document.getElementById(preset.getAttribute('aria-controls') ?? '')!);
    await user.click(within(listbox).getByRole('option', { name: 'Custom range', hidden: true }));

    await user.click(screen.getByTestId('performance-apply'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(calls.filter((call) => call.path === REPORT)).toHaveLength(1);

    await user.click(screen.getByRole('textbox', { name: 'Start date' }));
    await user.paste('03/31/2026');
    await user.click(screen.getByRole('textbox', { name: 'End date' }));
    await user.paste('03/01/2026');
    await user.click(screen.getByTestId('performance-apply'));
    expect(await screen.findByText('The end date must be on or after the start date')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Start date' }));
    await user.click(screen.getByRole('textbox', { name: 'Start date' }));
    await user.paste('01/01/2026');
    await user.click(screen.getByTestId('performance-apply'));
    await waitFor(() => expect(calls.filter((call) => call.path === REPORT)).toHaveLength(2));
    expect(calls.filter((call) => call.path === REPORT)[1]!.body).toEqual({
      dateFilter: 9,
      startDate: '01/01/2026',
      endDate: '03/01/2026',
    });
  }, 30_000);

  it('lists the patients behind a numerator, linked to their dashboards', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: REPORT, body: report },
      { method: 'POST', path: `${REPORT}/patients`, body: patients },
    ]);
    renderPage();
    const user = userEvent.setup();
    const baseline = await screen.findByTestId('measure-baselinePro');
    await user.click(within(baseline).getByRole('button', { name: /^Numerator patients/ }));
    const dialog = await screen.findByRole('dialog');
    const row = await within(dialog).findByTestId('performance-patient-row');
    expect(calls.find((call) => call.path === `${REPORT}/patients`)?.body).toMatchObject({
      filter: { dateFilter: 1 },
      measure: 'baselinePro',
      group: 'numerator',
      pageNumber: 0,
    });
    expect(row).toHaveTextContent('Born 04/02/1970 · Dr. Rivera');
    expect(row).toHaveTextContent('ODI');
    expect(row).toHaveTextContent('03/01/2026');
    await user.click(within(row).getByRole('link', { name: 'Ana Quintero' }));
    expect(await screen.findByTestId('patient-dashboard')).toBeInTheDocument();
  });

  it('opens one form of the MCID table', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: REPORT, body: report },
      { method: 'POST', path: `${REPORT}/patients`, body: { totalRecords: 0, totalExact: true, rows: [] } },
    ]);
    renderPage();
    const user = userEvent.setup();
    const perForm = await screen.findByTestId('performance-per-form');
    await user.click(within(perForm).getByRole('button', { name: /^2 of 2/ }));
    expect(await screen.findByTestId('performance-patients-empty')).toBeInTheDocument();
    expect(calls.find((call) => call.path === `${REPORT}/patients`)?.body).toMatchObject({
      measure: 'mcidImprovement',
      group: 'denominator',
      formCode: 3,
    });
  });

  it('says when nobody is in any measure, and offers a retry after an error', async () => {
    fakeApi([{ method: 'POST', path: REPORT, body: emptyReport }]);
    const first = renderPage();
    expect(await screen.findByTestId('performance-empty')).toBeInTheDocument();
    expect(screen.getAllByText('No patients in the denominator')).toHaveLength(4);
    first.unmount();

    fakeApi([{ method: 'POST', path: REPORT, status: 500, body: { error: 'Boom', code: 'INTERNAL' } }]);
    renderPage();
    expect(await screen.findByTestId('performance-error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    fakeApi([{ method: 'POST', path: REPORT, body: report }]);
    renderPage();
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Medidas de desempeño' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Pacientes del numerador: Cuestionario inicial/ })).toBeInTheDocument();
    expect(screen.getByTestId('report-conventions')).toHaveTextContent('Un valor positivo significa mejor y uno negativo, peor');
    expect(screen.getByTestId('measure-painChange-median')).toHaveTextContent('Mejoría mediana 3 puntos');
  });
});
