import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CampaignDetail, CampaignRecipient } from '@pathwell/contracts/campaigns';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { CampaignApproved } from './campaign-approved';
import { campaignId, detail, funnelOf, patientId } from './campaign-fixtures';

const running = detail({
  status: 'approved',
  approvedAt: '2026-03-03T15:00:00.000Z',
  approvedByName: 'Jordan Lee',
  textSending: true,
  funnel: funnelOf({ recipients: 200, sent: 50, delivered: 45, pending: 140, skipped: 10, replied: 4, booked: 1 }),
  can: { edit: false, approve: false, toggleText: true, finish: true, delete: false, archive: false },
  approveBlockedReason: 'status',
});

const recipient = (values: Partial<CampaignRecipient> = {}): CampaignRecipient => ({
  id: '99999999-9999-4999-8999-9999999999a1',
  patientId,
  patientName: 'Delgado, Rosa',
  language: 'es',
  phoneMasked: '(•••) •••-0142',
  emailMasked: null,
  smsStatus: 'queued',
  emailStatus: 'none',
  smsDelivery: 'delivered',
  emailDelivery: null,
  skipReason: null,
  smsReason: null,
  emailReason: null,
  queuedAt: '2026-03-03T16:00:00.000Z',
  clickedAt: null,
  repliedAt: '2026-03-03T16:05:00.000Z',
  optedOutAt: null,
  bookedAt: '2026-03-04T16:00:00.000Z',
  ...values,
});

const recipients = (data: CampaignRecipient[], totalRecords = data.length): FakeRoute => ({
  path: '/api/patients/patientscontrollist',
  body: { totalRecords, data },
});

const render = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CampaignApproved campaignId={campaignId} />
    </SessionReactContext.Provider>,
  );

describe('an approved campaign', () => {
  it('shows the progress, the counts and each recipient with masked addresses and marks', async () => {
    const skipped = recipient({
      id: '99999999-9999-4999-8999-9999999999a2',
      patientName: 'Nguyen, Mai',
      language: 'en',
      phoneMasked: null,
      smsStatus: 'skipped',
      smsDelivery: null,
      skipReason: 'optedOut',
      smsReason: 'optedOut',
      queuedAt: null,
      repliedAt: null,
      bookedAt: null,
    });
    const { calls } = fakeApi([{ path: `/api/campaigns/${campaignId}`, body: running }, recipients([recipient(), skipped])]);
    render();
    expect(await screen.findByTestId('campaign-progress-text')).toHaveTextContent('60 of 200 recipients done (50 sent)');
    expect(screen.getByRole('progressbar', { name: 'Sending progress' })).toHaveAttribute('aria-valuenow', '30');
    expect(screen.getByTestId('campaign-counts')).toHaveTextContent('140waiting');
    const [first, second] = await screen.findAllByTestId('recipient-row');
    expect(within(first!).getByRole('link', { name: 'Delgado, Rosa' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    expect(first).toHaveTextContent('(•••) •••-0142');
    expect(first).toHaveTextContent('Delivered');
    expect(first).toHaveTextContent('Spanish');
    expect(first).toHaveTextContent('replied');
    expect(first).toHaveTextContent('booked');
    expect(second).toHaveTextContent('Not sent');
    expect(second).toHaveTextContent('Text: Opted out');
    expect(screen.getByTestId('campaign-responses-link')).toHaveAttribute('href', `/campaignResponse/${campaignId}`);
    const list = calls.find((call) => call.path === '/api/patients/patientscontrollist')!;
    expect(list.query.get('campaignId')).toBe(campaignId);
  });

  it('turns text sending off and on with the switch', async () => {
    const { calls } = fakeApi([
      { path: `/api/campaigns/${campaignId}`, body: running },
      recipients([recipient()]),
      { method: 'PUT', path: `/api/campaigns/${campaignId}/textsending`, body: { ...running, textSending: false } },
    ]);
    render();
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: /^Text sending/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Text sending/ })).not.toBeChecked());
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ enabled: false });
  });

  it('leaves the switch off limits when the user may not toggle it', async () => {
    fakeApi([
      { path: `/api/campaigns/${campaignId}`, body: { ...running, can: { ...running.can, toggleText: false, finish: false } } },
      recipients([]),
    ]);
    render();
    expect(await screen.findByRole('switch', { name: /^Text sending/ })).toBeDisabled();
    expect(screen.queryByTestId('campaign-finish')).not.toBeInTheDocument();
    expect(await screen.findByTestId('recipients-empty')).toHaveTextContent('This campaign has no recipients.');
  });

  it('finishes after confirming', async () => {
    const finished: CampaignDetail = {
      ...running,
      status: 'finished',
      finishedAt: '2026-03-05T15:00:00.000Z',
      funnel: { ...running.funnel, pending: 0 },
      can: { ...running.can, finish: false, toggleText: false, archive: true },
    };
    const { calls } = fakeApi([
      { path: `/api/campaigns/${campaignId}`, body: running },
      recipients([recipient()]),
      { method: 'POST', path: `/api/campaigns/${campaignId}/finish`, body: finished },
    ]);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('campaign-finish'));
    await user.click(await screen.findByTestId('campaign-finish-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('campaign-status')[0]).toHaveTextContent('Finished'));
    expect(calls.filter((call) => call.path.endsWith('/finish'))).toHaveLength(1);
    expect(screen.getByTestId('campaign-archive')).toBeInTheDocument();
  });

  it('filters the recipients by state', async () => {
    const { calls } = fakeApi([{ path: `/api/campaigns/${campaignId}`, body: running }, recipients([recipient()])]);
    render();
    const user = userEvent.setup();
    await screen.findByTestId('recipient-row');
    const box = screen.getByRole('combobox', { name: 'Show' });
    await user.click(box);
    const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
    await user.click(within(listbox).getByRole('option', { name: 'Not sent', hidden: true }));
    await waitFor(() =>
      expect(
        calls
          .filter((call) => call.path === '/api/patients/patientscontrollist')
          .at(-1)!
          .query.get('status'),
      ).toBe('skipped'),
    );
  });

  it('refreshes its progress every 5 seconds while sending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = fakeApi([{ path: `/api/campaigns/${campaignId}`, body: running }, recipients([recipient()])]);
    render();
    await screen.findByTestId('campaign-progress-text');
    const details = () => calls.filter((call) => call.path === `/api/campaigns/${campaignId}`).length;
    expect(details()).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5100);
    });
    await waitFor(() => expect(details()).toBe(2));
  });

  it('does not refresh a campaign that has nothing left to send', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const done = { ...running, status: 'finished' as const, funnel: { ...running.funnel, pending: 0 } };
    const { calls } = fakeApi([{ path: `/api/campaigns/${campaignId}`, body: done }, recipients([recipient()])]);
    render();
    await screen.findByTestId('campaign-progress-text');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(11_000);
    });
    expect(calls.filter((call) => call.path === `/api/campaigns/${campaignId}`)).toHaveLength(1);
  });

  it('says when the campaign cannot be loaded', async () => {
    fakeApi([{ path: `/api/campaigns/${campaignId}`, status: 500, body: { error: 'Something went wrong.', code: 'INTERNAL' } }]);
    render();
    expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
    expect(await screen.findByTestId('campaign-error')).toHaveTextContent('The campaign could not be loaded.');
  });
});
