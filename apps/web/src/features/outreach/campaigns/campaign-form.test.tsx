import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { campaignId, detail, patientId, templateId } from './campaign-fixtures';
import { CampaignEdit, CampaignForm, clinicLocalInput, instantOfClinicInput } from './campaign-form';

// jsdom has no document.fonts; the message boxes' autosize listens to it.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});

const templates: FakeRoute = {
  path: '/api/audiencetemplates',
  body: { data: [{ id: templateId, name: 'Lumbar radiculopathy, not seen in 6 months', description: null }] },
};
const audience: FakeRoute = {
  method: 'POST',
  path: '/api/campaigns/audience',
  body: {
    count: 42,
    sample: [
      { patientId, firstName: 'Rosa', lastName: 'Delgado', dateOfBirth: '1961-04-02', lastVisit: null, matchedCodes: ['M54.16'] },
    ],
    channelsOff: [],
  },
};

const renderNew = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <CampaignForm />
    </SessionReactContext.Provider>,
    { path: '/patientcampaigns/newcampaign' },
  );

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByTestId('campaign-name'), 'Spring recall');
  const box = screen.getByRole('combobox', { name: /Code pull template/ });
  await user.click(box);
  const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
  await user.click(within(listbox).getByRole('option', { name: 'Lumbar radiculopathy, not seen in 6 months', hidden: true }));
  fireEvent.change(screen.getByTestId('campaign-message-en'), { target: { value: 'Hi {firstName}, {instruction}' } });
  fireEvent.change(screen.getByTestId('campaign-message-es'), { target: { value: 'Hola {firstName}, {instruction}' } });
}

describe('the campaign form', () => {
  it('counts characters and text messages the way carriers bill them', async () => {
    fakeApi([templates]);
    renderNew();
    const english = screen.getByTestId('campaign-message-en');
    fireEvent.change(english, { target: { value: 'a'.repeat(160) } });
    expect(screen.getByTestId('campaign-message-en-count')).toHaveTextContent('160 characters · 1 text message');
    fireEvent.change(english, { target: { value: 'a'.repeat(161) } });
    expect(screen.getByTestId('campaign-message-en-count')).toHaveTextContent('161 characters · 2 text messages');
    // One á makes the whole text Unicode: 70 fit one message, 67 each part.
    fireEvent.change(screen.getByTestId('campaign-message-es'), { target: { value: `${'a'.repeat(70)}á` } });
    expect(screen.getByTestId('campaign-message-es-count')).toHaveTextContent('71 characters · 2 text messages');
    expect(screen.getByTestId('campaign-message-es-count').parentElement).toHaveTextContent('such as á or an emoji');
    // Email only: no text counter, and the subjects appear.
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Text' }));
    expect(screen.queryByTestId('campaign-message-en-count')).not.toBeInTheDocument();
    expect(screen.getByTestId('campaign-subject-en')).toBeInTheDocument();
  });

  it('inserts a merge field where the cursor is', async () => {
    fakeApi([templates]);
    renderNew();
    const user = userEvent.setup();
    const english = screen.getByTestId('campaign-message-en') as HTMLTextAreaElement;
    await user.type(english, 'Hi , see you');
    english.setSelectionRange(3, 3);
    await user.click(screen.getByTestId('campaign-message-en-insert'));
    await user.click(await screen.findByRole('menuitem', { name: /\{firstName\}/ }));
    expect(english).toHaveValue('Hi {firstName}, see you');
  });

  it('checks the form with the contract before sending anything', async () => {
    const { calls } = fakeApi([templates]);
    renderNew();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    fireEvent.change(screen.getByTestId('campaign-message-en'), { target: { value: 'Hi {name}, see {link}' } });
    await user.click(screen.getByTestId('campaign-save'));
    expect(await screen.findByText('Please enter name')).toBeInTheDocument();
    expect(screen.getByText(/^Use only these fields/)).toBeInTheDocument();
    // Email needs subjects in both languages.
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(3);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('shows who would get it, saves, and opens the new campaign', async () => {
    const { calls } = fakeApi([
      templates,
      audience,
      { method: 'POST', path: '/api/campaigns', status: 201, body: detail({ name: 'Spring recall' }) },
    ]);
    const { router } = renderNew();
    const user = userEvent.setup();
    expect(screen.getByTestId('campaign-audience')).toHaveTextContent('Choose a template');
    await fillValid(user);
    expect(await screen.findByTestId('campaign-audience-count')).toHaveTextContent('42 patients would get this campaign now.');
    expect(screen.getByTestId('campaign-audience-sample')).toHaveTextContent('Delgado, Rosa');
    expect(calls.find((call) => call.path === '/api/campaigns/audience')!.body).toEqual({ templateId, channels: ['sms'] });
    expect(screen.queryByTestId('campaign-channel-off-sms')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('campaign-schedule-later'));
    fireEvent.change(screen.getByTestId('campaign-scheduled-at'), { target: { value: '2026-04-01T09:30' } });
    await user.click(screen.getByTestId('campaign-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/patientcampaigns/${campaignId}`));
    const sent = calls.find((call) => call.method === 'POST' && call.path === '/api/campaigns')!.body;
    expect(sent).toMatchObject({
      name: 'Spring recall',
      templateId,
      channels: ['sms'],
      messageEn: 'Hi {firstName}, {instruction}',
      // 09:30 on the clinic's clock (UTC−5).
      scheduledAt: '2026-04-01T14:30:00.000Z',
      throttlePerMinute: 60,
      attributionDays: 30,
      subjectEn: null,
      linkUrl: null,
    });
  });

  it('warns while the form is filled in that the clinic has texts turned off', async () => {
    fakeApi([templates, { ...audience, body: { ...(audience.body as object), channelsOff: ['sms'] } }]);
    renderNew();
    await fillValid(userEvent.setup());
    expect(await screen.findByTestId('campaign-channel-off-sms')).toHaveTextContent(
      'Texts are turned off for this clinic: nobody would be texted, and the campaign cannot be approved',
    );
  });

  it('puts the server’s field errors next to the fields', async () => {
    fakeApi([
      templates,
      audience,
      {
        method: 'POST',
        path: '/api/campaigns',
        status: 400,
        body: {
          error: 'Some fields are not valid.',
          code: 'VALIDATION',
          fields: { name: 'tooLong', 'channels.0': 'invalid', templateId: 'invalid' },
        },
      },
    ]);
    renderNew();
    const user = userEvent.setup();
    await fillValid(user);
    await user.click(screen.getByTestId('campaign-save'));
    expect(await screen.findByTestId('campaign-form-error')).toHaveTextContent(
      'Some fields are not valid. Check the highlighted fields.',
    );
    expect(screen.getByTestId('campaign-name')).toHaveAccessibleDescription('This value is too long');
    expect(screen.getAllByText('This value is not valid')).toHaveLength(2);
  });

  it('edits a draft with its saved values and sends them back with PUT', async () => {
    const { calls } = fakeApi([
      templates,
      audience,
      { path: `/api/campaigns/${campaignId}`, body: detail({ scheduledAt: '2026-04-01T14:30:00.000Z' }) },
      { method: 'PUT', path: `/api/campaigns/${campaignId}`, body: detail() },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CampaignEdit campaignId={campaignId} />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    expect(await screen.findByTestId('campaign-name')).toHaveValue('Lumbar radiculopathy recall');
    expect(screen.getByTestId('campaign-scheduled-at')).toHaveValue('2026-04-01T09:30');
    await user.click(screen.getByTestId('campaign-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toMatchObject({
      templateId,
      scheduledAt: '2026-04-01T14:30:00.000Z',
      instructionEs: 'Responda SÍ para pedir cita.',
    });
  });

  it('says an approved campaign can no longer be edited', async () => {
    fakeApi([
      templates,
      {
        path: `/api/campaigns/${campaignId}`,
        body: detail({ status: 'approved', can: { ...detail().can, edit: false } }),
      },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <CampaignEdit campaignId={campaignId} />
      </SessionReactContext.Provider>,
    );
    const notice = await screen.findByTestId('campaign-not-editable');
    expect(within(notice).getByRole('link', { name: 'Open the campaign' })).toHaveAttribute(
      'href',
      `/approvedcampaign/${campaignId}`,
    );
  });
});

describe('clinic times of the schedule', () => {
  it('reads and writes the datetime input on the clinic clock', () => {
    expect(instantOfClinicInput('2026-04-01T09:30', 'America/Chicago')).toBe('2026-04-01T14:30:00.000Z');
    expect(clinicLocalInput('2026-01-15T15:00:00.000Z', 'America/Chicago')).toBe('2026-01-15T09:00');
    expect(instantOfClinicInput('', 'America/Chicago')).toBe('');
  });
});
