import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CampaignDetail } from '@pathwell/contracts/campaigns';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { campaignId, detail } from './campaign-fixtures';
import { CampaignOverview } from './campaign-overview';

const one = (body: CampaignDetail | object, status = 200): FakeRoute => ({ path: `/api/campaigns/${campaignId}`, body, status });

const render = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CampaignOverview campaignId={campaignId} />
    </SessionReactContext.Provider>,
    { path: '/patientcampaigns/:id', initialPath: `/patientcampaigns/${campaignId}` },
  );

const audienceRoute = (): FakeRoute => ({
  path: `/api/campaigns/${campaignId}/audience`,
  body: {
    totalRecords: 17,
    data: [
      {
        patientId: '99999999-9999-4999-8999-999999999993',
        firstName: 'Rosa',
        lastName: 'Delgado',
        dateOfBirth: '1961-04-02',
        lastVisit: null,
        matchedCodes: ['M54.16'],
      },
    ],
  },
});

const approvable = detail({
  createdBy: '99999999-9999-4999-8999-999999999994',
  createdByName: 'Jordan Lee',
  can: { edit: true, approve: true, toggleText: false, finish: false, delete: true, archive: false },
  approveBlockedReason: null,
});

describe('a campaign overview', () => {
  it('shows the details and the filled-in message in both languages', async () => {
    fakeApi([one(detail({ channels: ['sms', 'email'], subjectEn: 'New openings', subjectEs: 'Citas nuevas' }))]);
    render();
    expect(await screen.findByTestId('campaign-preview-en')).toHaveTextContent(
      'Hi Rosa, Riverside Spine & Pain has new openings. Reply YES to book.',
    );
    expect(screen.getByTestId('campaign-preview-es')).toHaveTextContent('Hola Rosa, Riverside Spine & Pain tiene citas nuevas.');
    expect(screen.getByText('Subject: Citas nuevas')).toBeInTheDocument();
    const details = screen.getByTestId('campaign-details');
    expect(details).toHaveTextContent('Lumbar radiculopathy, not seen in 6 months');
    expect(details).toHaveTextContent('60 messages per minute');
    expect(details).toHaveTextContent('30 days');
    expect(details).toHaveTextContent('When approved');
    expect(screen.getByTestId('campaign-edit')).toHaveAttribute('href', `/editcampaign/${campaignId}`);
  });

  it('tells the author that another admin must approve', async () => {
    fakeApi([one(detail())]);
    render();
    expect(await screen.findByTestId('campaign-approve-blocked')).toHaveTextContent(
      'You wrote or changed this campaign, so another System Manager or Admin of the clinic must approve it.',
    );
    expect(screen.getByTestId('campaign-approve')).toBeDisabled();
    expect(screen.getByTestId('campaign-approve')).toHaveAccessibleDescription(/another System Manager or Admin/);
  });

  it('shows who will be messaged, approves the content reviewed (its digest) and opens the progress view', async () => {
    const { calls } = fakeApi([
      one(approvable),
      audienceRoute(),
      {
        method: 'POST',
        path: `/api/campaigns/${campaignId}/approve`,
        body: { ...approvable, status: 'approved', approvedAt: '2026-03-03T15:00:00.000Z' },
      },
    ]);
    const { router } = render();
    const user = userEvent.setup();
    expect(screen.queryByTestId('campaign-approve-blocked')).not.toBeInTheDocument();
    await user.click(await screen.findByTestId('campaign-approve'));
    expect(await screen.findByText(/The audience is frozen now/)).toBeInTheDocument();
    expect(await screen.findByTestId('campaign-approve-count')).toHaveTextContent('Approving messages these 17 patients now:');
    expect(screen.getByTestId('campaign-approve-audience')).toHaveTextContent('Delgado, Rosa · 04/02/1961');
    // Paged: the second page is asked for by number.
    await user.click(screen.getByRole('button', { name: /2/ }));
    await waitFor(() =>
      expect(
        calls.some((call) => call.path === `/api/campaigns/${campaignId}/audience` && call.query.get('pageNumber') === '1'),
      ).toBe(true),
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByTestId('campaign-approve-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/approvedcampaign/${campaignId}`));
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ contentHash: approvable.contentHash });
  });

  it('says the campaign changed since it was opened when the server refuses the digest', async () => {
    fakeApi([
      one(approvable),
      audienceRoute(),
      {
        method: 'POST',
        path: `/api/campaigns/${campaignId}/approve`,
        status: 409,
        body: {
          error: 'changed',
          messageKey: 'campaignContentChanged',
        },
      },
    ]);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('campaign-approve'));
    await screen.findByTestId('campaign-approve-count');
    await user.click(screen.getByTestId('campaign-approve-confirm'));
    expect(await screen.findByTestId('campaign-approve-confirm-error')).toHaveTextContent(
      'This campaign was changed after you opened it; review it again before approving',
    );
    expect(screen.getByTestId('campaign-approve-confirm')).toBeDisabled();
  });

  it('says why a campaign that texts cannot be approved while the clinic has texts off', async () => {
    fakeApi([
      one(
        detail({
          ...approvable,
          can: { ...approvable.can, approve: false },
          approveBlockedReason: 'channelOff',
          channelsOff: ['sms'],
        }),
      ),
    ]);
    render();
    expect(await screen.findByTestId('campaign-channel-off')).toHaveTextContent('Texts are turned off for this clinic');
    expect(screen.getByTestId('campaign-approve')).toBeDisabled();
    expect(screen.getByTestId('campaign-approve')).toHaveAccessibleDescription(/Texts are turned off/);
  });

  it('says an approved campaign is waiting for the clinic sending hours', async () => {
    fakeApi([
      one(
        detail({
          status: 'approved',
          can: { edit: false, approve: false, toggleText: true, finish: true, delete: true, archive: true },
          approveBlockedReason: 'status',
          waiting: { reason: 'sendingHours', until: '2026-03-04T14:00:00.000Z' },
        }),
      ),
    ]);
    render();
    expect(await screen.findByTestId('campaign-waiting')).toHaveTextContent(
      "Waiting for the clinic's sending hours (8:00 to 21:00): sending starts",
    );
  });

  it('offers archive when the server refuses to delete a campaign that already sent', async () => {
    const { calls } = fakeApi([
      one(approvable),
      {
        method: 'DELETE',
        path: `/api/campaigns/${campaignId}`,
        status: 409,
        body: { error: 'Messages were already sent; archive the campaign instead.', code: 'CONFLICT' },
      },
    ]);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('campaign-delete'));
    await user.click(await screen.findByTestId('campaign-delete-confirm'));
    expect(await screen.findByTestId('campaign-delete-confirm-error')).toHaveTextContent('Messages were already sent');
    expect(screen.getByTestId('campaign-delete-refused')).toHaveTextContent('Archive it instead.');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('deletes a draft after confirming and goes back to the list', async () => {
    fakeApi([one(approvable), { method: 'DELETE', path: `/api/campaigns/${campaignId}`, status: 204 }]);
    const { router } = render();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('campaign-delete'));
    await user.click(await screen.findByTestId('campaign-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/patientcampaigns/dashboard'));
  });

  it('shows a spinner, then says when the campaign cannot be loaded', async () => {
    fakeApi([one({ error: 'Not found', code: 'NOT_FOUND' }, 404)]);
    render();
    expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
    expect(await screen.findByTestId('campaign-error')).toHaveTextContent('The campaign could not be loaded.');
  });
});
