import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SurveyItems, SurveyReport as Report } from '@pathwell/contracts/reports-survey';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, ids, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { i18n } from '../../../lib/i18n';
import { SurveyReport } from './survey-report';

const REPORT = '/api/reports/surveyreport';
const formId = '77777777-7777-4777-8777-777777777791';
const measures = { sent: 0, opened: 0, completed: 0, completionRate: null, medianMinutesToComplete: null };

const report: Report = {
  period: 'month',
  timeZone: 'Etc/GMT+5',
  from: '2031-01-01T05:00:00.000Z',
  to: '2031-03-01T05:00:00.000Z',
  periods: [
    {
      period: '2031-01-01',
      formKey: 'pro-11',
      formName: 'PHQ-9',
      sent: 3,
      opened: 3,
      completed: 2,
      completionRate: 0.6667,
      medianMinutesToComplete: 60,
    },
    {
      period: '2031-02-01',
      formKey: 'pro-11',
      formName: 'PHQ-9',
      sent: 2,
      opened: 1,
      completed: 1,
      completionRate: 0.5,
      medianMinutesToComplete: 60,
    },
    {
      period: '2031-02-01',
      formKey: `cf-${formId}`,
      formName: 'Back pain check',
      sent: 2,
      opened: 2,
      completed: 1,
      completionRate: 0.5,
      medianMinutesToComplete: 10,
    },
  ],
  forms: [
    {
      formKey: 'pro-11',
      formCode: 11,
      customFormId: null,
      formName: 'PHQ-9',
      sent: 5,
      opened: 4,
      completed: 3,
      completionRate: 0.6,
      medianMinutesToComplete: 60,
    },
    {
      formKey: `cf-${formId}`,
      formCode: null,
      customFormId: formId,
      formName: 'Back pain check',
      sent: 2,
      opened: 2,
      completed: 1,
      completionRate: 0.5,
      medianMinutesToComplete: 10,
    },
  ],
  totals: { sent: 7, opened: 6, completed: 4, completionRate: 0.5714, medianMinutesToComplete: 180 },
};

const items: SurveyItems = {
  customFormId: formId,
  title: 'Back pain check',
  version: 1,
  versions: [{ version: 1, responses: 3 }],
  responses: 3,
  questions: [
    {
      questionId: 'q1',
      text: 'How bad is it?',
      type: 2,
      kind: 'values',
      answered: 3,
      answers: [
        { value: 'a', label: 'Mild', count: 2 },
        { value: 'b', label: 'Severe', count: 1 },
      ],
    },
    { questionId: 'q3', text: 'Tell us more', type: 1, kind: 'answered', answered: 1, answers: [] },
  ],
};

const formsRoute = {
  path: `${REPORT}/forms`,
  body: { customForms: [{ id: formId, title: 'Back pain check', currentVersion: 1 }] },
};

afterEach(async () => {
  localStorage.removeItem('doctorId');
  await i18n.changeLanguage('en');
});

async function pick(user: ReturnType<typeof userEvent.setup>, name: string | RegExp, option: string) {
  const box = screen.getByRole('combobox', { name });
  await user.click(box);
  const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
  await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

describe('the survey report', () => {
  it('loads this year by month for the selected doctor; chart numbers in tables, rates and medians per form', async () => {
    localStorage.setItem('doctorId', ids.doctor);
    const { calls } = fakeApi([{ method: 'POST', path: REPORT, body: report }, formsRoute]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'Survey report' })).toBeInTheDocument();
    const byPeriod = await screen.findByTestId('survey-by-period');
    expect(calls.find((call) => call.path === REPORT)?.body).toEqual({
      dateFilter: 7,
      period: 'month',
      language: 'en',
      doctorId: ids.doctor,
    });
    expect(screen.getByTestId('survey-chart')).toHaveAttribute('aria-label', expect.stringContaining('Bar chart'));
    // February sums both forms: 2 + 2 sent, 1 + 2 opened, 1 + 1 completed.
    expect(within(byPeriod).getByRole('row', { name: /02\/2031/ })).toHaveTextContent('02/2031432');
    const byForm = screen.getByTestId('survey-by-form');
    expect(within(byForm).getByRole('row', { name: /PHQ-9/ })).toHaveTextContent('PHQ-954360%60 min');
    expect(within(byForm).getByRole('row', { name: /All forms/ })).toHaveTextContent('57.1%3 h');
  });

  it('says so when nothing was sent, and offers a retry when loading fails', async () => {
    fakeApi([{ method: 'POST', path: REPORT, body: { ...report, periods: [], forms: [], totals: measures } }, formsRoute]);
    const first = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('survey-empty')).toHaveTextContent('No forms were sent in these dates.');
    first.unmount();
    fakeApi([
      { method: 'POST', path: REPORT, status: 500, body: { error: 'Something went wrong', code: 'INTERNAL' } },
      formsRoute,
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('survey-error', {}, { timeout: 4000 })).toHaveTextContent('The report could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('checks a custom range before asking, then sends the weeks and the chosen form', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: REPORT, body: report }, formsRoute]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    await screen.findByTestId('survey-by-form');
    await pick(user, 'Dates', 'Custom range');
    await user.click(screen.getByTestId('survey-apply'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    await user.click(screen.getByRole('textbox', { name: 'From' }));
    await user.paste('01/01/2031');
    await user.click(screen.getByRole('textbox', { name: 'To' }));
    await user.paste('02/28/2031');
    await pick(user, 'Group by', 'Week');
    await pick(user, 'Form', 'Back pain check');
    await user.click(screen.getByTestId('survey-apply'));
    await waitFor(() => expect(calls.filter((call) => call.path === REPORT)).toHaveLength(2));
    expect(calls.filter((call) => call.path === REPORT)[1]!.body).toEqual({
      dateFilter: 9,
      startDate: '01/01/2031',
      endDate: '02/28/2031',
      period: 'week',
      language: 'en',
      customFormId: formId,
    });
  }, 30_000);

  it("shows a custom form's answer counts as bars and a table; free text only as a count", async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: REPORT, body: report },
      { method: 'POST', path: `${REPORT}/items`, body: items },
      formsRoute,
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    await screen.findByTestId('survey-by-form');
    await pick(user, 'Custom form', 'Back pain check');
    const section = await screen.findByTestId('survey-items');
    expect(calls.find((call) => call.path === `${REPORT}/items`)?.body).toMatchObject({
      customFormId: formId,
      filter: { dateFilter: 7 },
    });
    const table = within(section).getByRole('table', { name: 'Answers to “How bad is it?”' });
    expect(within(table).getByRole('row', { name: /Mild/ })).toHaveTextContent('Mild266.7%');
    expect(within(section).getByText(/Free text: only the number of answers is shown/)).toBeInTheDocument();
    expect(within(section).getAllByRole('table')).toHaveLength(1);
  });

  it('speaks Spanish', async () => {
    fakeApi([{ method: 'POST', path: REPORT, body: report }, formsRoute]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <SurveyReport />
      </SessionReactContext.Provider>,
    );
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Informe de encuestas' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Finalización por formulario' })).toBeInTheDocument();
  });
});
