import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CampaignResponse } from '@pathwell/contracts/campaigns';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { campaignId, detail, patientId } from './campaign-fixtures';
import { CampaignResponses } from './campaign-responses';

const responses = (data: CampaignResponse[], status = 200): FakeRoute => ({
  path: `/api/campaigns/${campaignId}/responses`,
  status,
  body: status === 200 ? { totalRecords: data.length, data } : { error: 'Something went wrong.', code: 'INTERNAL' },
});
const campaign: FakeRoute = { path: `/api/campaigns/${campaignId}`, body: detail({ status: 'finished' }) };

const render = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CampaignResponses campaignId={campaignId} />
    </SessionReactContext.Provider>,
  );

describe('campaign responses', () => {
  it('lists replies, opt-outs, clicks and bookings on the clinic clock, with the patient linked', async () => {
    fakeApi([
      campaign,
      responses([
        { kind: 'reply', at: '2026-03-03T16:05:00.000Z', patientId, patientName: 'Delgado, Rosa', detail: 'SÍ, el martes' },
        { kind: 'optOut', at: '2026-03-03T17:00:00.000Z', patientId, patientName: 'Nguyen, Mai', detail: 'STOP' },
        { kind: 'booked', at: '2026-03-04T15:00:00.000Z', patientId, patientName: 'Delgado, Rosa', detail: '2026-03-10' },
      ]),
    ]);
    render();
    const [reply, optOut, booked] = await screen.findAllByTestId('response-row');
    // 16:05 UTC is 11:05 AM at the clinic (UTC−5).
    expect(reply).toHaveTextContent('03/03/2026 11:05 AM');
    expect(reply).toHaveTextContent('Reply');
    expect(reply).toHaveTextContent('SÍ, el martes');
    expect(within(reply!).getByRole('link', { name: 'Delgado, Rosa' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    expect(optOut).toHaveTextContent('Opt-out');
    expect(booked).toHaveTextContent('Appointment on 03/10/2026');
    expect(await screen.findByText('Lumbar radiculopathy recall')).toBeInTheDocument();
  });

  it('filters by kind', async () => {
    const { calls } = fakeApi([campaign, responses([])]);
    render();
    const user = userEvent.setup();
    expect(await screen.findByTestId('responses-empty')).toHaveTextContent('No responses yet.');
    const box = screen.getByRole('combobox', { name: 'Kind' });
    await user.click(box);
    const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
    await user.click(within(listbox).getByRole('option', { name: 'Booked', hidden: true }));
    await waitFor(() => expect(calls.at(-1)!.query.get('kind')).toBe('booked'));
    expect(await screen.findByTestId('responses-empty')).toHaveTextContent('No responses of this kind.');
  });

  it('says when the responses cannot be loaded', async () => {
    fakeApi([campaign, responses([], 500)]);
    render();
    expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
    expect(await screen.findByTestId('responses-error')).toHaveTextContent('The responses could not be loaded.');
  });
});
