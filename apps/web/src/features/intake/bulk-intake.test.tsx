import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { BulkIntakeNotification } from './bulk-intake';
import type { BulkIntakeCandidate, BulkIntakeProgress } from './bulk-intake.api';

const BASE = '/api/patients/bulkintakenotification';
const batchId = '99999999-9999-4999-8999-999999999999';
const day = '11/21/2026';

const candidate = (n: number, overrides: Partial<BulkIntakeCandidate>): BulkIntakeCandidate => ({
  appointmentId: `aaaaaaaa-aaaa-4aaa-8aaa-00000000000${n}`,
  patientId: `bbbbbbbb-bbbb-4bbb-8bbb-00000000000${n}`,
  patientName: `Patient ${n}`,
  timeText: `0${n}:00 AM`,
  doctorName: 'Dana Reyes',
  channels: [],
  reason: null,
  ...overrides,
});

const candidates: BulkIntakeCandidate[] = [
  candidate(1, { patientName: 'Lucía Núñez', channels: ['email', 'sms'] }),
  candidate(2, { patientName: 'Omar Haddad', channels: ['email'], doctorName: null }),
  candidate(3, { patientName: 'Ada Brooks', reason: 'noContact' }),
  candidate(4, { patientName: 'Ben Ortiz', reason: 'optedOut' }),
  candidate(5, { patientName: 'Cora Diaz', reason: 'alreadySent' }),
  candidate(6, { patientName: 'Eli Stone', reason: 'completed' }),
];

const progress = (overrides: Partial<BulkIntakeProgress>): BulkIntakeProgress => ({
  batchId,
  total: 4,
  waiting: 0,
  sent: 0,
  failed: 0,
  notSent: 0,
  ...overrides,
});

/** Answers the listed bodies one after the other, then keeps answering the last. */
function sequentialRoute(path: string, bodies: unknown[]): FakeRoute {
  let index = 0;
  return {
    path,
    get body() {
      const body = bodies[Math.min(index, bodies.length - 1)];
      index += 1;
      return body;
    },
  };
}

const doctorsRoute: FakeRoute = {
  path: '/api/users/providers',
  body: [
    { id: ids.doctor, firstName: 'Dana', lastName: 'Reyes' },
    { id: '55555555-5555-4555-8555-555555555555', firstName: 'Sam', lastName: 'Lee' },
  ],
};
const previewRoute = (body: unknown = { candidates }): FakeRoute => ({ method: 'POST', path: `${BASE}/preview`, body });

function renderPage(routes: FakeRoute[], initialPath = '/patients/bulkintakenotification') {
  const api = fakeApi([doctorsRoute, ...routes]);
  const view = renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <BulkIntakeNotification />
    </SessionReactContext.Provider>,
    { path: '/patients/bulkintakenotification', initialPath },
  );
  return { ...api, ...view };
}

async function previewDay(user: ReturnType<typeof userEvent.setup>, date = day) {
  const input = screen.getByRole('textbox', { name: /^Day/ });
  await user.clear(input);
  await user.type(input, date);
  await user.click(screen.getByRole('button', { name: 'Preview' }));
}

describe('bulk intake notification', () => {
  it('previews who gets a link, by which channel, and why the others do not', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage([previewRoute()]);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Bulk intake notification');
    await previewDay(user);
    const rows = await screen.findAllByTestId('bulk-intake-row');
    expect(rows).toHaveLength(6);
    expect(calls.find((call) => call.path === `${BASE}/preview`)?.body).toEqual({
      date: day,
      doctorIds: [],
      send: ['email', 'sms'],
    });
    expect(screen.getByTestId('bulk-intake-summary')).toHaveTextContent('2 of 6 patients will get a link');
    expect(
      within(rows[0]!)
        .getAllByTestId('bulk-intake-channel')
        .map((badge) => badge.textContent),
    ).toEqual(['Email', 'Text']);
    expect(rows[0]).toHaveTextContent('Lucía Núñez');
    expect(rows[0]).toHaveTextContent('Dana Reyes');
    expect(rows[1]).toHaveTextContent('—');
    expect(within(rows[2]!).getByTestId('bulk-intake-reason')).toHaveTextContent(
      'No email or mobile phone, or messages switched off',
    );
    expect(rows[3]).toHaveTextContent('Opted out of texts (STOP)');
    expect(rows[4]).toHaveTextContent('An intake link is already open');
    expect(rows[5]).toHaveTextContent('Intake already complete');
    expect(screen.getByRole('button', { name: 'Send to 2 patients' })).toBeEnabled();

    await i18n.changeLanguage('es');
    expect(await screen.findByText('No acepta mensajes de texto (STOP)')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Notificación de registro masiva');
    expect(screen.getByTestId('bulk-intake-summary')).toHaveTextContent('2 de 6 pacientes recibirán un enlace');
  });

  it('sends the previewed body and follows the batch with a progress bar until nothing waits', async () => {
    const user = userEvent.setup();
    const { calls, router } = renderPage([
      previewRoute(),
      { method: 'POST', path: BASE, status: 201, body: { batchId, links: 2, messages: 4 } },
      sequentialRoute(`${BASE}/${batchId}`, [
        progress({ waiting: 2, sent: 2 }),
        progress({ waiting: 0, sent: 2, failed: 1, notSent: 1 }),
      ]),
    ]);
    // Only Dana Reyes's patients, by email only.
    await user.click(screen.getByRole('combobox', { name: 'Providers' }));
    await user.click(await screen.findByRole('option', { name: 'Dana Reyes', hidden: true }));
    await user.click(screen.getByRole('checkbox', { name: 'Text message' }));
    await previewDay(user);
    await user.click(await screen.findByRole('button', { name: 'Send to 2 patients' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send intake links?' });
    expect(dialog).toHaveTextContent('2 patients with appointments on 11/21/2026 will get an intake link now.');
    await user.click(within(dialog).getByRole('button', { name: 'Send now' }));

    const previewBody = calls.find((call) => call.path === `${BASE}/preview`)?.body;
    expect(previewBody).toEqual({ date: day, doctorIds: [ids.doctor], send: ['email'] });
    await waitFor(() => expect(calls.find((call) => call.method === 'POST' && call.path === BASE)?.body).toEqual(previewBody));

    const bar = await screen.findByRole('progressbar', { name: 'Messages handled' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByTestId('bulk-intake-progress-label')).toHaveTextContent('2 of 4 messages sent · 2 waiting');
    expect(router.state.location.search).toBe(`?batch=${batchId}`);
    expect(screen.queryByTestId('bulk-intake-done')).not.toBeInTheDocument();

    // The next poll, a second later, finds nothing waiting: the bar is full and polling stops.
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100'), { timeout: 3000 });
    expect(screen.getByTestId('bulk-intake-progress-label')).toHaveTextContent(
      '2 of 4 messages sent · 1 failed · 1 not sent (no provider)',
    );
    expect(screen.getByTestId('bulk-intake-done')).toHaveTextContent('Finished');
    const polls = calls.filter((call) => call.path === `${BASE}/${batchId}`).length;
    expect(polls).toBe(2);

    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('button', { name: 'Preview' })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === `${BASE}/${batchId}`)).toHaveLength(polls);
  });

  it('keeps showing a batch after a reload, from the address', async () => {
    renderPage(
      [sequentialRoute(`${BASE}/${batchId}`, [progress({ waiting: 0, sent: 4 })])],
      `/patients/bulkintakenotification?batch=${batchId}`,
    );
    expect(await screen.findByRole('progressbar', { name: 'Messages handled' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByTestId('bulk-intake-progress-label')).toHaveTextContent('4 of 4 messages sent');
    expect(screen.getByTestId('bulk-intake-done')).toHaveTextContent('4 messages went out.');
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('shows the server’s “nobody to notify” refusal', async () => {
    const user = userEvent.setup();
    renderPage([
      previewRoute(),
      {
        method: 'POST',
        path: BASE,
        status: 409,
        body: { error: 'None of these patients can be sent an intake link', code: 'CONFLICT', messageKey: 'nobodyToNotify' },
      },
    ]);
    await previewDay(user);
    await user.click(await screen.findByRole('button', { name: 'Send to 2 patients' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByTestId('bulk-intake-send-error')).toHaveTextContent(
      'None of these patients can be sent an intake link',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says when nobody has an appointment, and cannot send then', async () => {
    const user = userEvent.setup();
    renderPage([previewRoute({ candidates: [] })]);
    await previewDay(user);
    expect(await screen.findByTestId('bulk-intake-empty')).toHaveTextContent('No appointments on 11/21/2026.');
    expect(screen.queryByTestId('bulk-intake-send')).not.toBeInTheDocument();
  });

  it('disables sending when nobody can be reached', async () => {
    const user = userEvent.setup();
    renderPage([previewRoute({ candidates: candidates.slice(2) })]);
    await previewDay(user);
    expect(await screen.findByTestId('bulk-intake-summary')).toHaveTextContent('0 of 4 patients will get a link');
    expect(screen.getByRole('button', { name: 'Send to 0 patients' })).toBeDisabled();
  });

  it('shows a mistyped day under its field without asking the server, and the server’s date error there too', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage([
      {
        method: 'POST',
        path: `${BASE}/preview`,
        status: 400,
        body: { error: 'Some fields are not valid', code: 'VALIDATION', fields: { date: 'dateInvalid' } },
      },
    ]);
    const input = screen.getByRole('textbox', { name: /^Day/ });
    await previewDay(user, '13/45/2026');
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Date must be MM/DD/YYYY'));
    expect(calls.filter((call) => call.path === `${BASE}/preview`)).toHaveLength(0);

    // A day the server refuses shows the same way.
    await previewDay(user, '02/28/2026');
    await waitFor(() => expect(calls.filter((call) => call.path === `${BASE}/preview`)).toHaveLength(1));
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Date must be MM/DD/YYYY'));
    expect(screen.queryByTestId('bulk-intake-preview-error')).not.toBeInTheDocument();
  });

  it('asks for at least one channel', async () => {
    const user = userEvent.setup();
    const { calls } = renderPage([previewRoute()]);
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Text message' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('Choose at least one channel')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === `${BASE}/preview`)).toHaveLength(0);
  });
});
