import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@pathwell/contracts/session';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, ids, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { campaignId, funnelOf, summary } from './campaign-fixtures';
import { CampaignResults } from './campaign-results';

const spring = summary({
  status: 'finished',
  approvedAt: '2026-03-03T15:00:00.000Z',
  funnel: funnelOf({ recipients: 210, sent: 200, delivered: 190, clicked: 40, replied: 30, booked: 12 }),
});
const autumn = summary({
  id: '99999999-9999-4999-8999-9999999999b1',
  name: 'Stimulator candidates',
  status: 'approved',
  approvedAt: '2026-09-01T15:00:00.000Z',
  funnel: funnelOf({ recipients: 50, sent: 0 }),
});

const render = (session: SessionContext = makeSession()) =>
  renderAt(
    <SessionReactContext.Provider value={session}>
      <CampaignResults />
    </SessionReactContext.Provider>,
  );

describe('campaign results', () => {
  it('compares campaigns in a chart and a table with the same numbers and rates', async () => {
    fakeApi([{ path: '/api/campaigns/results', body: { data: [spring, autumn] } }]);
    render();
    const [first, second] = await screen.findAllByTestId('results-row');
    expect(within(first!).getByTestId('results-sent')).toHaveTextContent('200');
    expect(within(first!).getByTestId('results-delivered')).toHaveTextContent('190');
    expect(within(first!).getByTestId('results-clicked')).toHaveTextContent('40');
    expect(within(first!).getByTestId('results-replied')).toHaveTextContent('30');
    expect(within(first!).getByTestId('results-booked')).toHaveTextContent('12');
    // 30 of 200 replied, 12 of 200 booked.
    expect(within(first!).getByTestId('results-reply-rate')).toHaveTextContent('15%');
    expect(within(first!).getByTestId('results-book-rate')).toHaveTextContent('6%');
    expect(within(first!).getByRole('link', { name: 'Lumbar radiculopathy recall' })).toHaveAttribute(
      'href',
      `/approvedcampaign/${campaignId}`,
    );
    // Nothing sent yet: no rate.
    expect(within(second!).getByTestId('results-reply-rate')).toHaveTextContent('—');
    expect(screen.getByTestId('results-total')).toHaveTextContent('260');
    expect(screen.getByTestId('results-chart')).toHaveAttribute('aria-label', expect.stringContaining('same numbers'));
  });

  it('shows Doctors the numbers without links into the campaigns', async () => {
    fakeApi([{ path: '/api/campaigns/results', body: { data: [spring] } }]);
    render(makeSession({ user: { id: ids.doctor, role: 'Doctor' } }));
    const row = await screen.findByTestId('results-row');
    expect(row).toHaveTextContent('Lumbar radiculopathy recall');
    expect(within(row).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByTestId('results-total')).not.toBeInTheDocument();
  });

  it('asks again for a date range and checks its order first', async () => {
    const { calls } = fakeApi([{ path: '/api/campaigns/results', body: { data: [] } }]);
    render();
    const user = userEvent.setup();
    expect(await screen.findByTestId('results-empty')).toHaveTextContent('No campaign was approved in this period.');
    expect(calls[0]!.query.has('from')).toBe(false);
    await user.type(screen.getByLabelText('Approved from'), '2026-06-01');
    await user.type(screen.getByLabelText('Approved to'), '2026-01-01');
    await user.click(screen.getByTestId('results-apply'));
    expect(await screen.findByText('The end date must be on or after the start date')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await user.clear(screen.getByLabelText('Approved to'));
    await user.type(screen.getByLabelText('Approved to'), '2026-12-31');
    await user.click(screen.getByTestId('results-apply'));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.query.get('from')).toBe('2026-06-01');
    expect(calls[1]!.query.get('to')).toBe('2026-12-31');
  });

  it('says when the results cannot be loaded', async () => {
    fakeApi([{ path: '/api/campaigns/results', status: 500, body: { error: 'Something went wrong.', code: 'INTERNAL' } }]);
    render();
    expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
    expect(await screen.findByTestId('results-error')).toHaveTextContent('The results could not be loaded.');
  });
});
