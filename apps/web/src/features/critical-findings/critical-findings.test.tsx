import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CriticalFinding } from '@pathwell/contracts/critical-findings';
import type { PatientFormResponses } from '@pathwell/contracts/form-responses';
import type { AppointmentDashboard } from '@pathwell/contracts/intake';
import type { NotificationList, StaffNotification } from '@pathwell/contracts/messaging';
import type { FormResponseDetail } from '@pathwell/contracts/patient-links';
import { instrumentForm } from '@pathwell/instruments';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { Component as FormResponsePage } from '../../routes/questionnaires/form-response';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AppointmentDashboardView } from '../intake/appointment-dashboard';
import { NotificationBell } from '../notifications/notification-bell';
import { NotificationPage } from '../notifications/notification-page';
import { QuestionnairesPanel } from '../questionnaires/questionnaires-panel';

const responseId = '77777777-7777-4777-8777-777777777777';
const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const appointmentId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const findingId = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const openFinding: CriticalFinding = {
  id: findingId,
  responseId,
  patientId,
  appointmentId,
  formCode: 11,
  ruleKey: 'phq9-item9',
  itemId: 'q9',
  answer: 1,
  createdAt: '2026-11-20T15:30:00.000Z',
  acknowledgedAt: null,
  acknowledgedByName: null,
};
const acknowledgedFinding: CriticalFinding = {
  ...openFinding,
  acknowledgedAt: '2026-11-20T16:05:00.000Z',
  acknowledgedByName: 'Daniela Ortiz',
};

/** The case: items 1–8 at 1, item 9 at 1: "9/27 Mild". */
const response = (findings: CriticalFinding[]): FormResponseDetail => ({
  id: responseId,
  patientId,
  appointmentId,
  kind: 'instrument',
  formCode: 11,
  customFormId: null,
  formTitle: 'PHQ-9',
  version: 'PHQ-9',
  language: 'en',
  headlineScore: 9,
  band: 1,
  submittedAt: '2026-11-20T15:30:00.000Z',
  criticalFindings: findings,
  patientName: 'María Núñez',
  form: instrumentForm(11),
  answers: { q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 0, q9: 1, q10: 0 },
  scores: { total: 9, severity: 1, item9Positive: 1 },
  previous: null,
});

const renderResponse = (role: 'Admin' | 'Doctor' | 'Staff' = 'Admin') =>
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <FormResponsePage />
    </SessionReactContext.Provider>,
    { path: '/formresponse/result/:id', initialPath: `/formresponse/result/${responseId}` },
  );

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('the response page', () => {
  it('puts an open finding first, in red, and an Admin acknowledges it: who and when follow', async () => {
    const api = fakeApi([
      { path: `/api/formresponses/${responseId}`, body: response([openFinding]) },
      { method: 'POST', path: `/api/criticalfindings/${findingId}/acknowledge`, body: acknowledgedFinding },
    ]);
    renderResponse('Admin');
    const finding = await screen.findByTestId('critical-finding');
    expect(finding).toHaveAttribute('data-state', 'open');
    expect(finding).toHaveTextContent('Urgent finding');
    expect(finding).toHaveTextContent('PHQ-9 item 9: thoughts of death or self-harm: answered “Several days”.');
    expect(finding).toHaveTextContent('Raised 11/20/2026 10:30 AM.');
    expect(finding).toHaveTextContent('Kroenke');
    // Before the score summary, so it is the first thing read.
    expect(
      screen.getByTestId('critical-findings').compareDocumentPosition(screen.getByTestId('response-summary')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();

    await userEvent.click(within(finding).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(screen.getByTestId('critical-finding')).toHaveAttribute('data-state', 'acknowledged'));
    expect(screen.getByTestId('finding-acknowledged')).toHaveTextContent('Acknowledged by Daniela Ortiz on 11/20/2026 11:05 AM.');
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `/api/criticalfindings/${findingId}/acknowledge`,
    ]);
    // The page was not read again (each read of a response is logged).
    expect(api.calls.filter((call) => call.path === `/api/formresponses/${responseId}`)).toHaveLength(1);
  });

  it('a Doctor may acknowledge too; Staff see the red finding without the action', async () => {
    fakeApi([{ path: `/api/formresponses/${responseId}`, body: response([openFinding]) }]);
    const doctor = renderResponse('Doctor');
    expect(await screen.findByRole('button', { name: 'Acknowledge' })).toBeInTheDocument();
    doctor.unmount();

    fakeApi([{ path: `/api/formresponses/${responseId}`, body: response([openFinding]) }]);
    renderResponse('Staff');
    const finding = await screen.findByTestId('critical-finding');
    expect(finding).toHaveAttribute('data-state', 'open');
    expect(finding).toHaveTextContent("Waiting for the patient's Doctor or an Admin to acknowledge it.");
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
  });

  it('shows an acknowledged finding with who and when, and a refused acknowledgement as an error', async () => {
    fakeApi([{ path: `/api/formresponses/${responseId}`, body: response([acknowledgedFinding]) }]);
    const acknowledged = renderResponse();
    expect(await screen.findByTestId('finding-acknowledged')).toHaveTextContent('Acknowledged by Daniela Ortiz');
    acknowledged.unmount();

    fakeApi([
      { path: `/api/formresponses/${responseId}`, body: response([openFinding]) },
      {
        method: 'POST',
        path: `/api/criticalfindings/${findingId}/acknowledge`,
        status: 403,
        body: { error: 'You are not allowed to do this', code: 'FORBIDDEN' },
      },
    ]);
    renderResponse();
    await userEvent.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByTestId('acknowledge-error')).toBeInTheDocument();
    expect(screen.getByTestId('critical-finding')).toHaveAttribute('data-state', 'open');
  });

  it('reads in Spanish', async () => {
    await i18n.changeLanguage('es');
    fakeApi([{ path: `/api/formresponses/${responseId}`, body: response([openFinding]) }]);
    renderResponse();
    await i18n.changeLanguage('es');
    const finding = await screen.findByTestId('critical-finding');
    expect(finding).toHaveTextContent('Hallazgo urgente');
    expect(finding).toHaveTextContent('PHQ-9 ítem 9: pensamientos de muerte o de lastimarse: respondió «Varios días».');
    expect(within(finding).getByRole('button', { name: 'Confirmar revisión' })).toBeInTheDocument();
  });
});

describe('the red flag on the lists', () => {
  it("marks the patient dashboard's questionnaire result red while open, grey once acknowledged", async () => {
    const summary = (findings: CriticalFinding[]) => {
      const {
        patientName: _name,
        form: _form,
        answers: _answers,
        scores: _scores,
        previous: _previous,
        ...rest
      } = response(findings);
      return rest;
    };
    const body = (findings: CriticalFinding[]): PatientFormResponses => ({ data: [summary(findings)], series: [] });
    fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: body([openFinding]) },
      { path: '/api/patient-links', body: [] },
    ]);
    const open = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <QuestionnairesPanel patientId={patientId} appointments={[]} timeZone="Etc/GMT+5" />
      </SessionReactContext.Provider>,
    );
    const row = await screen.findByTestId('form-response');
    expect(row).toHaveTextContent('9 / 27');
    expect(within(row).getByTestId('critical-flag')).toHaveAttribute('data-state', 'open');
    expect(within(row).getByTestId('critical-flag')).toHaveTextContent('Urgent: not acknowledged');
    open.unmount();

    fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: body([acknowledgedFinding]) },
      { path: '/api/patient-links', body: [] },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <QuestionnairesPanel patientId={patientId} appointments={[]} timeZone="Etc/GMT+5" />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('critical-flag')).toHaveAttribute('data-state', 'acknowledged');
  });

  it('marks the appointment dashboard row red, linked to the response to acknowledge', async () => {
    const day: AppointmentDashboard = {
      date: '11/20/2026',
      selfCheckIn: false,
      rows: [
        {
          appointmentId,
          patientId,
          patientName: 'María Núñez',
          startsAt: '2026-11-20T14:30:00.000Z',
          timeText: '9:30 AM',
          doctorName: 'Daniela Ortiz',
          roomName: null,
          status: 1,
          checkedIn: false,
          criticalFindings: [openFinding],
          intake: null,
        },
      ],
    };
    fakeApi([
      { method: 'POST', path: '/api/patients/appointmentdashboardinfo', body: day },
      { path: '/api/users/providers', body: [] },
      { path: '/api/rooms', body: { totalRecords: 0, data: [] } },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <AppointmentDashboardView />
      </SessionReactContext.Provider>,
      { path: '/patients/appointmentdashboard' },
    );
    const row = await screen.findByTestId('appt-dashboard-row');
    expect(within(row).getByTestId('critical-flag')).toHaveAttribute('data-state', 'open');
    expect(within(row).getByRole('link', { name: 'Urgent: not acknowledged' })).toHaveAttribute(
      'href',
      `/formresponse/result/${responseId}`,
    );
  });
});

describe('the bell', () => {
  const note = (overrides: Partial<StaffNotification>): StaffNotification => ({
    id: '99999999-9999-4999-8999-999999999991',
    kind: 'formsCompleted',
    createdAt: '2026-11-20T15:30:00.000Z',
    patientId,
    patientFirstName: 'María',
    patientLastName: 'Núñez',
    seen: true,
    notified: true,
    responseId: null,
    urgent: false,
    ...overrides,
  });

  it('shows an urgent finding red with its own text, even once seen, and opens the response', async () => {
    const list: NotificationList = {
      unseen: 0,
      data: [note({ id: '99999999-9999-4999-8999-999999999992', kind: 'criticalFinding', responseId, urgent: true }), note({})],
    };
    fakeApi([
      { path: '/api/notifications', body: list },
      { method: 'POST', path: '/api/notifications/seen', body: { marked: 0 } },
    ]);
    const { router } = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <NotificationBell timeZone="Etc/GMT+5" />
      </SessionReactContext.Provider>,
    );
    await userEvent.click(screen.getByTestId('notification-bell'));
    const items = await screen.findAllByTestId('notification-item');
    expect(items[0]).toHaveAttribute('data-urgent', 'true');
    expect(items[0]).toHaveTextContent(
      "Urgent: 11/20/2026 10:30 AM: URGENT: María Núñez answered a safety question in a way that needs a clinician's review (thoughts of self-harm).",
    );
    expect(items[1]).not.toHaveAttribute('data-urgent');
    await userEvent.click(items[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/formresponse/result/${responseId}`));
  });
});

describe('the notification page', () => {
  it('lists an urgent finding red, linked to its response', async () => {
    const urgent: StaffNotification = {
      id: '99999999-9999-4999-8999-999999999993',
      kind: 'criticalFinding',
      createdAt: '2026-11-20T15:30:00.000Z',
      patientId,
      patientFirstName: 'María',
      patientLastName: 'Núñez',
      seen: true,
      notified: true,
      responseId,
      urgent: true,
    };
    fakeApi([{ path: '/api/notifications/paged', body: { totalRecords: 1, totalExact: true, unseen: 0, data: [urgent] } }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <NotificationPage />
      </SessionReactContext.Provider>,
      { path: '/patients/nevro/chatternotification' },
    );
    const link = await screen.findByRole('link', { name: /URGENT: María Núñez answered a safety question/ });
    expect(link).toHaveAttribute('href', `/formresponse/result/${responseId}`);
    expect(link).toHaveAttribute('data-urgent', 'true');
  });
});
