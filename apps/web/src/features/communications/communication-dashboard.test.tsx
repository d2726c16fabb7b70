import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommunicationMessage, CommunicationPage } from '@pathwell/contracts/messaging';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { CommunicationDashboard } from './communication-dashboard';

const patientId = '77777777-7777-4777-8777-777777777777';
const attachmentId = '99999999-9999-4999-8999-999999999999';

// jsdom has no object URLs; the attachment dialog test sets them.
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});
const message = (overrides: Partial<CommunicationMessage>): CommunicationMessage => ({
  id: '88888888-8888-4888-8888-888888888881',
  createdAt: '2026-11-20T15:30:00.000Z',
  channel: 'email',
  recipient: 'l•••@example.test',
  template: 'patient-link',
  patient: { id: patientId, name: 'Lucía Núñez' },
  status: 'delivered',
  error: null,
  attempts: 1,
  sendAfter: null,
  sentAt: '2026-11-20T15:30:02.000Z',
  resendable: false,
  attachments: [],
  ...overrides,
});

const page: CommunicationPage = {
  totalRecords: 3,
  totalExact: true,
  providers: { email: true, sms: false },
  data: [
    message({}),
    message({
      id: '88888888-8888-4888-8888-888888888882',
      status: 'failed',
      error: '550: Mailbox unavailable',
      attempts: 6,
      resendable: true,
    }),
    message({
      id: '88888888-8888-4888-8888-888888888883',
      channel: 'sms',
      recipient: '•••0177',
      status: 'suppressed',
      error: 'optedOut',
      attempts: 0,
    }),
  ],
};

function renderDashboard() {
  const api = fakeApi([
    { method: 'POST', path: '/api/communications/filtered', body: page },
    { path: '/api/communications/counts', body: { days: [{ day: '11/20/2026', counts: { delivered: 1, failed: 1 } }] } },
    { method: 'POST', path: `/api/communications/${page.data[1]!.id}/resend`, body: { ...page.data[1], status: 'queued' } },
    { path: '/api/instancesettings/dailycap', body: { maxPatientMessagesPerDay: 3 } },
  ]);
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CommunicationDashboard />
    </SessionReactContext.Provider>,
  );
  return api;
}

describe('communication dashboard', () => {
  it('lists masked recipients with status, reason and tries, and says which provider is missing', async () => {
    renderDashboard();
    const rows = await screen.findAllByTestId('communication-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('l•••@example.test');
    expect(rows[0]).toHaveTextContent('Delivered');
    expect(rows[1]).toHaveTextContent('550: Mailbox unavailable');
    expect(rows[2]).toHaveTextContent('•••0177');
    expect(rows[2]).toHaveTextContent('The patient texted STOP');
    expect(screen.getByTestId('no-sms-provider')).toBeInTheDocument();
    expect(screen.queryByTestId('no-email-provider')).not.toBeInTheDocument();
    // Only the failed one can be sent again.
    expect(within(rows[1]!).getByTestId('communication-resend')).toBeInTheDocument();
    expect(within(rows[0]!).queryByTestId('communication-resend')).not.toBeInTheDocument();
  });

  it('sends a failed message again and narrows the list to one patient', async () => {
    const user = userEvent.setup();
    const { calls } = renderDashboard();
    const rows = await screen.findAllByTestId('communication-row');
    await user.click(within(rows[1]!).getByTestId('communication-resend'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/resend'))).toBe(true));
    await user.click(within(rows[0]!).getByTestId('communication-only-patient'));
    await waitFor(() =>
      expect(
        calls.some(
          (call) => call.path === '/api/communications/filtered' && (call.body as { patientId?: string }).patientId === patientId,
        ),
      ).toBe(true),
    );
    expect(await screen.findByTestId('communications-patient-filter')).toHaveTextContent('Lucía Núñez');
  });

  it('shows a mistyped date under its field and does not ask the server', async () => {
    const user = userEvent.setup();
    const { calls } = renderDashboard();
    await screen.findAllByTestId('communication-row');
    const asked = calls.filter((call) => call.path === '/api/communications/filtered').length;
    await user.type(screen.getByRole('textbox', { name: 'From' }), '13/45/2026');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/communications/filtered')).toHaveLength(asked);
  });

  it("opens a support request's screenshot in a dialog, and lets it go when the dialog closes", async () => {
    const user = userEvent.setup();
    const support = message({
      id: '88888888-8888-4888-8888-888888888884',
      template: 'support-request',
      patient: null,
      recipient: 's•••@pathwell.test',
      status: 'stored',
      sentAt: null,
      resendable: true,
      attachments: [{ id: attachmentId, fileName: 'blank chart.png', contentType: 'image/png', size: 56_000 }],
    });
    URL.createObjectURL = vi.fn(() => 'blob:screenshot');
    URL.revokeObjectURL = vi.fn();
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/communications/filtered', body: { ...page, data: [support, ...page.data] } },
      { path: '/api/communications/counts', body: { days: [] } },
      { path: `/api/communications/${support.id}/attachments/${attachmentId}`, body: {} },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession({ user: { role: 'SystemManager' } })}>
        <CommunicationDashboard />
      </SessionReactContext.Provider>,
    );
    const rows = await screen.findAllByTestId('communication-row');
    expect(within(rows[0]!).getByText('Support request')).toBeInTheDocument();
    expect(within(rows[1]!).queryByTestId('communication-attachment')).not.toBeInTheDocument();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Open blank chart.png (55 KB)' }));
    expect(await screen.findByRole('img', { name: 'Attachment blank chart.png' })).toHaveAttribute('src', 'blob:screenshot');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'blank chart.png');
    expect(calls.filter((call) => call.path.includes('/attachments/'))).toHaveLength(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:screenshot'));
  });

  it("says in words why an automatic message waits for the next morning (the clinic's daily cap, decision 0066)", async () => {
    const held = message({
      template: 'pathway-education',
      status: 'scheduled',
      error: 'heldDailyCap',
      sendAfter: '2026-11-21T14:00:00.000Z',
      sentAt: null,
      attempts: 0,
    });
    fakeApi([
      { method: 'POST', path: '/api/communications/filtered', body: { ...page, totalRecords: 1, data: [held] } },
      { path: '/api/communications/counts', body: { days: [] } },
      { path: '/api/instancesettings/dailycap', body: { maxPatientMessagesPerDay: 3 } },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CommunicationDashboard />
      </SessionReactContext.Provider>,
    );
    const [row] = await screen.findAllByTestId('communication-row');
    expect(within(row!).getByTestId('communication-error')).toHaveTextContent(
      "Held until the next clinic morning: the patient already had the clinic's daily number of automatic messages",
    );
    expect(row).toHaveTextContent('11/21/2026 09:00 AM');
    await i18n.changeLanguage('es');
    await waitFor(() =>
      expect(within(row!).getByTestId('communication-error')).toHaveTextContent(
        /^Retenido hasta la mañana siguiente de la clínica/,
      ),
    );
    await i18n.changeLanguage('en');
  });

  it('lets an Admin set the daily cap, shows a number out of range under the field, and says when it cannot load', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/communications/filtered', body: page },
      { path: '/api/communications/counts', body: { days: [] } },
      { path: '/api/instancesettings/dailycap', body: { maxPatientMessagesPerDay: 3 } },
      { method: 'PUT', path: '/api/instancesettings/dailycap', body: { maxPatientMessagesPerDay: 5 } },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CommunicationDashboard />
      </SessionReactContext.Provider>,
    );
    const card = await screen.findByTestId('daily-cap');
    const input = await within(card).findByLabelText(/Most automatic messages one patient gets in a clinic day/);
    expect(input).toHaveValue('3');
    expect(card).toHaveTextContent('At most 3 automatic messages per patient per clinic day, by each channel.');
    expect(card).toHaveTextContent(/never dropped/);
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '5');
    await user.click(within(card).getByTestId('daily-cap-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ maxPatientMessagesPerDay: 5 });
    expect(
      await within(card).findByText('At most 5 automatic messages per patient per clinic day, by each channel.'),
    ).toBeInTheDocument();
  });

  it('shows the server refusing the daily cap under the field, and a failed load with a retry', async () => {
    fakeApi([
      { method: 'POST', path: '/api/communications/filtered', body: page },
      { path: '/api/communications/counts', body: { days: [] } },
      { path: '/api/instancesettings/dailycap', body: { maxPatientMessagesPerDay: null } },
      {
        method: 'PUT',
        path: '/api/instancesettings/dailycap',
        status: 400,
        body: { error: 'Invalid', code: 'VALIDATION', fields: { maxPatientMessagesPerDay: 'numberOutOfRange' } },
      },
    ]);
    const first = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CommunicationDashboard />
      </SessionReactContext.Provider>,
    );
    const card = await screen.findByTestId('daily-cap');
    expect(await within(card).findByText('No limit: every automatic message goes when it is due.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(card).getByTestId('daily-cap-save'));
    await waitFor(() => expect(within(card).getByTestId('daily-cap-input')).toHaveAttribute('aria-invalid', 'true'));
    first.unmount();

    fakeApi([
      { method: 'POST', path: '/api/communications/filtered', body: page },
      { path: '/api/communications/counts', body: { days: [] } },
      { path: '/api/instancesettings/dailycap', status: 500, body: { error: 'Something went wrong', code: 'INTERNAL' } },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CommunicationDashboard />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('daily-cap-error', {}, { timeout: 4000 })).toHaveTextContent(
      'The daily limit could not be loaded.',
    );
  });

  it('reads in Spanish', async () => {
    renderDashboard();
    await i18n.changeLanguage('es');
    const rows = await screen.findAllByTestId('communication-row');
    expect(rows[2]).toHaveTextContent('El paciente respondió STOP');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Panel de comunicaciones');
  });
});
