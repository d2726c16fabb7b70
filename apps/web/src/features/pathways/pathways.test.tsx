import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@pathwell/contracts/roles';
import type { Pathway, PathwayEnrolment, PathwayRosterPage, PathwaySummary, PatientPathway } from '@pathwell/contracts/pathways';
import { SessionReactContext } from '../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { PathwayList } from './pathway-list';
import { PathwayTimeline } from './pathway-timeline';
import { PatientPathwaysCard } from './patient-pathways-card';

const pathwayId = '55555555-5555-4555-8555-555555555551';
const enrolmentId = '55555555-5555-4555-8555-555555555552';
const patientId = '55555555-5555-4555-8555-555555555553';
const runIds = [
  '66666666-6666-4666-8666-666666666661',
  '66666666-6666-4666-8666-666666666662',
  '66666666-6666-4666-8666-666666666663',
];

const summary: PathwaySummary = {
  id: pathwayId,
  name: 'Lumbar epidural steroid injection',
  description: 'ODI and pain at baseline, 2 weeks and 3 months',
  trigger: 'procedure',
  triggerItemIds: [],
  isExample: true,
  isActive: true,
  stepCount: 3,
  activeEnrolments: 2,
  enrolments: 3,
  completedEnrolments: 1,
  dueRuns: 4,
  completedRuns: 3,
  completionRate: 0.75,
};

const pathway: Pathway = {
  ...summary,
  steps: [
    {
      id: runIds[0]!,
      sortOrder: 0,
      dayOffset: 0,
      kind: 'pro',
      formCode: 2,
      customFormId: null,
      formTitle: 'Oswestry Disability Index',
      messageEn: null,
      messageEs: null,
      reminderDays: [3, 7],
    },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const run = (id: string, values: Partial<PathwayEnrolment['steps'][number]>): PathwayEnrolment['steps'][number] => ({
  id,
  stepId: id,
  sortOrder: 0,
  dayOffset: 0,
  kind: 'pro',
  formCode: 2,
  customFormId: null,
  formTitle: 'Oswestry Disability Index',
  messageEn: null,
  messageEs: null,
  dueAt: '2026-01-05T15:00:00.000Z',
  status: 'completed',
  sentAt: '2026-01-05T15:00:00.000Z',
  remindersSent: 0,
  reminderDays: [3, 7],
  completedAt: '2026-01-06T15:00:00.000Z',
  skipReason: null,
  score: null,
  ...values,
});

const enrolment: PathwayEnrolment = {
  id: enrolmentId,
  pathwayId,
  pathwayName: 'Lumbar epidural steroid injection',
  pathwayDescription: null,
  isExample: true,
  patientId,
  patientName: 'Ana Quintero',
  status: 'active',
  startedBy: 'procedure',
  anchorAt: '2026-01-05T15:00:00.000Z',
  completedAt: null,
  steps: [
    run(runIds[0]!, {
      score: {
        responseId: runIds[0]!,
        submittedAt: '2026-01-06T15:00:00.000Z',
        headlineScore: 44,
        baseline: null,
        isBaseline: true,
        change: null,
        better: null,
        mcidPoints: 10,
        meetsMcid: null,
      },
    }),
    run(runIds[1]!, {
      dayOffset: 14,
      dueAt: '2026-01-19T15:00:00.000Z',
      remindersSent: 1,
      score: {
        responseId: runIds[1]!,
        submittedAt: '2026-01-21T15:00:00.000Z',
        headlineScore: 30,
        baseline: { responseId: runIds[0]!, submittedAt: '2026-01-06T15:00:00.000Z', headlineScore: 44 },
        isBaseline: false,
        change: -14,
        better: true,
        mcidPoints: 10,
        meetsMcid: true,
      },
    }),
    run(runIds[2]!, {
      dayOffset: 14,
      kind: 'task',
      formCode: null,
      formTitle: null,
      messageEn: 'Call the patient',
      dueAt: '2026-01-19T15:00:00.000Z',
      status: 'sent',
      reminderDays: [],
      completedAt: null,
    }),
  ],
};

// jsdom has no document.fonts; the editor's autosize text areas listen to it.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});

function renderAs(role: Role, element: React.ReactNode) {
  return renderAt(<SessionReactContext.Provider value={makeSession({ user: { role } })}>{element}</SessionReactContext.Provider>);
}

describe('the pathways page', () => {
  it('lists pathways with the example badge and, for Admins, the completion rate', async () => {
    fakeApi([{ path: '/api/pathways', body: [summary] }]);
    renderAs('Admin', <PathwayList />);
    const row = await screen.findByTestId('pathway-row');
    expect(row).toHaveTextContent('Lumbar epidural steroid injection');
    expect(within(row).getByTestId('pathway-example')).toHaveTextContent('Example');
    expect(row).toHaveTextContent('Procedure performed');
    expect(row).toHaveTextContent('75% (3 of 4)');
    expect(screen.getByTestId('pathway-add')).toBeInTheDocument();
  });

  it('shows Staff the list without the rate or the editing actions', async () => {
    fakeApi([{ path: '/api/pathways', body: [{ ...summary, dueRuns: null, completedRuns: null, completionRate: null }] }]);
    renderAs('Staff', <PathwayList />);
    const row = await screen.findByTestId('pathway-row');
    expect(row).not.toHaveTextContent('75%');
    expect(screen.queryByTestId('pathway-add')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    fakeApi([{ path: '/api/pathways', body: [] }]);
    renderAs('Admin', <PathwayList />);
    expect(await screen.findByTestId('pathways-empty')).toHaveTextContent('No pathways yet.');
  });

  it('offers a retry when loading fails', async () => {
    fakeApi([{ path: '/api/pathways', status: 403, body: { error: 'You are not allowed to do this', code: 'FORBIDDEN' } }]);
    renderAs('Admin', <PathwayList />);
    expect(await screen.findByTestId('pathways-error', {}, { timeout: 4000 })).toHaveTextContent(
      'The pathways could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('creates a pathway from the editor, checking the steps first', async () => {
    const { calls } = fakeApi([
      { path: '/api/pathways', body: [] },
      { path: '/api/pathways/options', body: { procedures: [], studyGroups: [], customForms: [] } },
      { method: 'POST', path: '/api/pathways', status: 201, body: pathway },
    ]);
    renderAs('Admin', <PathwayList />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('pathway-add'));
    const editor = await screen.findByTestId('pathway-editor');
    await user.click(within(editor).getByTestId('pathway-save'));
    expect(await within(editor).findByText('Please enter name')).toBeInTheDocument();
    await user.type(within(editor).getByLabelText(/^Name/), 'Six-week ODI');
    const reminders = within(editor).getByLabelText(/Reminders/);
    await user.clear(reminders);
    await user.type(reminders, '3, x');
    await user.click(within(editor).getByTestId('pathway-save'));
    expect(await within(editor).findByText(/Write days between 1 and 60/)).toBeInTheDocument();
    await user.clear(reminders);
    await user.type(reminders, '3, 7');
    await user.click(within(editor).getByTestId('pathway-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/api/pathways')).toBe(true));
    const posted = calls.find((call) => call.method === 'POST')!.body as {
      name: string;
      steps: { formCode: number; reminderDays: number[] }[];
    };
    expect(posted.name).toBe('Six-week ODI');
    expect(posted.steps[0]).toMatchObject({ formCode: 2, reminderDays: [3, 7] });
  });
});

describe("a patient's pathway", () => {
  const routes: FakeRoute[] = [
    { path: `/api/pathways/enrolments/${enrolmentId}`, body: enrolment },
    { method: 'POST', path: `/api/pathways/steprun/${runIds[2]}/done`, body: enrolment },
    { method: 'POST', path: `/api/pathways/enrolments/${enrolmentId}/stop`, body: { ...enrolment, status: 'stopped' } },
  ];

  it('shows each step with its status, reminders and the score against baseline with the MCID verdict', async () => {
    fakeApi(routes);
    renderAs('Staff', <PathwayTimeline enrolmentId={enrolmentId} timeZone="Etc/GMT+5" />);
    const rows = await screen.findAllByTestId('pathway-run');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Baseline');
    expect(rows[1]).toHaveTextContent('-14 from baseline');
    expect(within(rows[1]!).getByTestId('pathway-mcid')).toHaveTextContent('Meets MCID (10 points)');
    expect(rows[1]).toHaveTextContent('1 of 2');
    expect(screen.getByText(/Example pathway — edit to match/)).toBeInTheDocument();
  });

  it('marks a task done and stops the enrolment', async () => {
    const { calls } = fakeApi(routes);
    renderAs('Staff', <PathwayTimeline enrolmentId={enrolmentId} timeZone="Etc/GMT+5" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark done: task of day 14' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/done'))).toBe(true));
    await user.click(screen.getByTestId('pathway-stop'));
    await user.click(await screen.findByTestId('pathway-stop-confirm'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/stop'))).toBe(true));
  });

  it('says when the enrolment is not found', async () => {
    fakeApi([]);
    renderAs('Staff', <PathwayTimeline enrolmentId={enrolmentId} timeZone="Etc/GMT+5" />);
    expect(await screen.findByTestId('pathway-timeline-error')).toHaveTextContent('This enrolment was not found.');
  });
});

describe('the pathways card of the patient dashboard', () => {
  const mine: PatientPathway = {
    id: enrolmentId,
    pathwayId,
    pathwayName: 'Lumbar epidural steroid injection',
    isExample: true,
    status: 'active',
    startedBy: 'procedure',
    anchorAt: '2026-01-05T15:00:00.000Z',
    completedSteps: 1,
    totalSteps: 3,
    nextStep: { runId: runIds[1]!, kind: 'pro', dueAt: '2026-01-19T15:00:00.000Z', formTitle: 'Oswestry Disability Index' },
    nextProAt: '2026-01-19T15:00:00.000Z',
  };

  it('lists the enrolments with the next step and its date, and enrols in a pathway', async () => {
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/pathways`, body: [mine] },
      { path: '/api/pathways', body: [summary] },
      { method: 'POST', path: `/api/pathways/${pathwayId}/enrol`, status: 201, body: enrolment },
    ]);
    renderAs('Doctor', <PatientPathwaysCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const row = await screen.findByTestId('patient-pathway');
    expect(row).toHaveTextContent('Next: Oswestry Disability Index on 01/19/2026');
    expect(row).toHaveTextContent('1 of 3 steps done');
    expect(within(row).getByRole('link', { name: 'Lumbar epidural steroid injection' })).toHaveAttribute(
      'href',
      `/pathwaysresponse/${enrolmentId}`,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Enrol in pathway' }));
    await user.click(await screen.findByTestId('pathway-enrol-submit'));
    expect(await screen.findByText('Choose a pathway')).toBeInTheDocument();
    await user.click(screen.getByTestId('pathway-select'));
    await user.click(await screen.findByRole('option', { name: /Lumbar epidural steroid injection/, hidden: true }));
    await user.type(screen.getByLabelText(/Start date/), '02/01/2026');
    await user.click(screen.getByTestId('pathway-enrol-submit'));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const body = calls.find((call) => call.method === 'POST')!.body as { patientId: string; anchorAt: string };
    expect(body).toEqual({ patientId, anchorAt: '2026-02-01T14:00:00.000Z' });
  });

  it('says when the patient follows no pathway', async () => {
    fakeApi([{ path: `/api/patients/${patientId}/pathways`, body: [] }]);
    renderAs('Staff', <PatientPathwaysCard patientId={patientId} timeZone="Etc/GMT+5" />);
    expect(await screen.findByText('Not following any pathway.')).toBeInTheDocument();
  });
});

describe("a pathway's roster (issue #24 §5)", () => {
  const page: PathwayRosterPage = {
    totalRecords: 21,
    pageNumber: 0,
    pageSize: 20,
    data: [
      {
        enrolmentId,
        patientId,
        patientName: 'Ana Quintero',
        status: 'active',
        anchorAt: '2026-01-05T15:00:00.000Z',
        steps: [
          {
            runId: runIds[0]!,
            kind: 'pro',
            dayOffset: 0,
            formTitle: 'Oswestry Disability Index',
            status: 'completed',
            dueAt: '2026-01-05T15:00:00.000Z',
            sentAt: '2026-01-05T15:00:00.000Z',
            completedAt: '2026-01-06T15:00:00.000Z',
            skipReason: null,
            headlineScore: 44,
          },
          {
            runId: runIds[1]!,
            kind: 'pro',
            dayOffset: 14,
            formTitle: 'Oswestry Disability Index',
            status: 'skipped',
            dueAt: '2026-01-19T15:00:00.000Z',
            sentAt: null,
            completedAt: '2026-01-19T15:00:00.000Z',
            skipReason: 'unreachable',
            headlineScore: null,
          },
          {
            runId: runIds[2]!,
            kind: 'task',
            dayOffset: 90,
            formTitle: null,
            status: 'pending',
            dueAt: '2026-04-05T15:00:00.000Z',
            sentAt: null,
            completedAt: null,
            skipReason: null,
            headlineScore: null,
          },
        ],
      },
    ],
  };

  it('opens from the list for any role and shows each patient with every step result, paged', async () => {
    const { calls } = fakeApi([
      { path: '/api/pathways', body: [{ ...summary, dueRuns: null, completedRuns: null, completionRate: null }] },
      { path: `/api/pathways/${pathwayId}/roster`, body: page },
    ]);
    renderAs('Staff', <PathwayList />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Patients on Lumbar epidural steroid injection' }));
    const roster = await screen.findByTestId('pathway-roster');
    expect(within(roster).getByTestId('pathway-roster-total')).toHaveTextContent('21 patients enrolled');
    const row = within(roster).getByTestId('pathway-roster-row');
    expect(within(row).getByRole('link', { name: 'Ana Quintero' })).toHaveAttribute('href', `/pathwaysresponse/${enrolmentId}`);
    const steps = within(row).getAllByTestId('roster-step');
    expect(steps.map((step) => step.textContent)).toEqual([
      'Answered · score 44Day 0 · Oswestry Disability Index · 01/06/2026',
      expect.stringMatching(/^SkippedDay 14 · Oswestry Disability Index · no email or text allowed · 01\/19\/2026$/),
      'PendingDay 90 · Staff task · due 04/05/2026',
    ]);
    expect(calls.find((call) => call.path.endsWith('/roster'))!.query.get('pageNumber')).toBe('0');
    await user.click(within(roster).getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(calls.some((call) => call.path.endsWith('/roster') && call.query.get('pageNumber') === '1')).toBe(true),
    );
  });

  it('says when nobody is enrolled, and offers a retry when loading fails', async () => {
    fakeApi([
      { path: '/api/pathways', body: [summary] },
      { path: `/api/pathways/${pathwayId}/roster`, body: { totalRecords: 0, pageNumber: 0, pageSize: 20, data: [] } },
    ]);
    const first = renderAs('Admin', <PathwayList />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Patients on Lumbar epidural steroid injection' }));
    expect(await screen.findByTestId('pathway-roster-empty')).toHaveTextContent('No patients are enrolled in this pathway.');
    first.unmount();

    fakeApi([
      { path: '/api/pathways', body: [summary] },
      { path: `/api/pathways/${pathwayId}/roster`, status: 500, body: { error: 'Something went wrong', code: 'INTERNAL' } },
    ]);
    renderAs('Admin', <PathwayList />);
    await user.click(await screen.findByRole('button', { name: 'Patients on Lumbar epidural steroid injection' }));
    expect(await screen.findByTestId('pathway-roster-error', {}, { timeout: 4000 })).toHaveTextContent(
      'The patients on this pathway could not be loaded.',
    );
  });
});
