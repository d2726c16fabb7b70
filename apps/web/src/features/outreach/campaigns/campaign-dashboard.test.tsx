import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@pathwell/contracts/session';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { CampaignDashboard } from './campaign-dashboard';
import { campaignId, funnelOf, summary } from './campaign-fixtures';

const render = (session: SessionContext = makeSession()) =>
  renderAt(
    <SessionReactContext.Provider value={session}>
      <CampaignDashboard />
    </SessionReactContext.Provider>,
  );

const approved = summary({
  status: 'approved',
  channels: ['sms', 'email'],
  approvedAt: '2026-03-03T15:00:00.000Z',
  approvedByName: 'Jordan Lee',
  funnel: funnelOf({ recipients: 120, sent: 118, replied: 14, booked: 6 }),
});

describe('the campaigns dashboard', () => {
  it('lists campaigns with status, channels, dates and a compact funnel, and links each', async () => {
    const { calls } = fakeApi([{ path: '/api/campaigns', body: { totalRecords: 1, data: [approved] } }]);
    render();
    const row = await screen.findByTestId('campaign-row');
    expect(within(row).getByTestId('campaign-status')).toHaveTextContent('Approved');
    expect(row).toHaveTextContent('Text, Email');
    expect(row).toHaveTextContent('03/03/2026');
    expect(row).toHaveTextContent('When approved');
    expect(within(row).getByTestId('campaign-funnel')).toHaveTextContent('120 recipients→ 118 sent→ 14 replied→ 6 booked');
    expect(within(row).getByRole('link', { name: 'Lumbar radiculopathy recall' })).toHaveAttribute(
      'href',
      `/approvedcampaign/${campaignId}`,
    );
    expect(screen.getByTestId('campaign-create')).toHaveAttribute('href', '/patientcampaigns/newcampaign');
    expect(screen.getByRole('link', { name: 'Code pull templates' })).toHaveAttribute('href', '/templateList');
    expect(screen.getByRole('link', { name: 'Campaign results' })).toHaveAttribute('href', '/patientcampaigns/results');
    expect(calls[0]!.query.get('pageSize')).toBe('15');
    expect(calls[0]!.query.has('status')).toBe(false);
  });

  it('filters by status and pages through the list', async () => {
    const { calls } = fakeApi([{ path: '/api/campaigns', body: { totalRecords: 40, data: [summary()] } }]);
    render();
    const user = userEvent.setup();
    await screen.findByTestId('campaign-row');
    const box = screen.getByRole('combobox', { name: 'Status' });
    await user.click(box);
    const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
    await user.click(within(listbox).getByRole('option', { name: 'Draft', hidden: true }));
    await waitFor(() => expect(calls.at(-1)!.query.get('status')).toBe('draft'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.at(-1)!.query.get('pageNumber')).toBe('1'));
    expect(calls.at(-1)!.query.get('status')).toBe('draft');
  });

  it('hides Create New Campaign in the parent all-clinics view', async () => {
    fakeApi([{ path: '/api/campaigns', body: { totalRecords: 1, data: [summary()] } }]);
    render(makeSession({ allClinics: true, user: { isParent: true } }));
    await screen.findByTestId('campaign-row');
    expect(screen.queryByTestId('campaign-create')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Lumbar radiculopathy recall' })).toHaveAttribute(
      'href',
      `/patientcampaigns/${campaignId}`,
    );
  });

  it('explains what a campaign is when there is none yet', async () => {
    fakeApi([{ path: '/api/campaigns', body: { totalRecords: 0, data: [] } }]);
    render();
    const empty = await screen.findByTestId('campaign-empty');
    expect(empty).toHaveTextContent('A campaign is a text and/or email');
    expect(within(empty).getByRole('link', { name: 'Go to code pull templates' })).toHaveAttribute('href', '/templateList');
  });

  it('shows a spinner while loading, then the failure with a retry', async () => {
    const { calls } = fakeApi([
      { path: '/api/campaigns', status: 403, body: { error: 'Campaigns are not turned on for this clinic.', code: 'FORBIDDEN' } },
    ]);
    render();
    expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
    expect(await screen.findByTestId('campaign-list-error')).toHaveTextContent(
      'The campaigns could not be loaded. Campaigns are not turned on for this clinic.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
