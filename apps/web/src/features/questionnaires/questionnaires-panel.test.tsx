import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PatientFormResponses } from '@pathwell/contracts/form-responses';
import type { CreatedPatientLink, FormResponseSummary, PatientLink } from '@pathwell/contracts/patient-links';
import { SessionReactContext } from '../../app/session-context';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { QuestionnairesPanel } from './questionnaires-panel';

const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const appointmentId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const linkId = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const summary = (overrides: Partial<FormResponseSummary>): FormResponseSummary => ({
  id: crypto.randomUUID(),
  patientId,
  appointmentId: null,
  kind: 'instrument',
  formCode: 11,
  customFormId: null,
  formTitle: 'PHQ-9',
  version: 'PHQ-9',
  language: 'en',
  headlineScore: 9,
  band: 1,
  submittedAt: '2025-03-10T15:30:00.000Z',
  criticalFindings: [],
  ...overrides,
});

const latest = summary({});
const earlier = summary({ headlineScore: 16, band: 3, submittedAt: '2025-01-10T15:00:00.000Z' });
const odi = summary({
  formCode: 2,
  formTitle: 'ODI',
  version: 'ODI 2.1a',
  headlineScore: 42,
  band: 2,
  submittedAt: '2025-02-01T15:00:00.000Z',
});

const responses: PatientFormResponses = {
  data: [latest, odi, earlier],
  series: [
    {
      formCode: 11,
      customFormId: null,
      title: 'PHQ-9',
      maximum: 27,
      higherIsBetter: false,
      points: [
        { responseId: earlier.id, submittedAt: earlier.submittedAt, score: 16 },
        { responseId: latest.id, submittedAt: latest.submittedAt, score: 9 },
      ],
    },
    {
      formCode: 2,
      customFormId: null,
      title: 'ODI',
      maximum: 100,
      higherIsBetter: false,
      points: [{ responseId: odi.id, submittedAt: odi.submittedAt, score: 42 }],
    },
  ],
};

const link: PatientLink = {
  id: linkId,
  patientId,
  appointmentId,
  formCode: 12,
  customFormId: null,
  formTitle: 'GAD-7',
  status: 'active',
  expiresAt: '2025-03-17T15:00:00.000Z',
  createdAt: '2025-03-10T15:00:00.000Z',
  completedAt: null,
  responseId: null,
};
const created: CreatedPatientLink = {
  ...link,
  token: 'A'.repeat(43),
  url: `http://localhost/patients/gad7/${'A'.repeat(43)}/${appointmentId}`,
};

const renderPanel = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <QuestionnairesPanel
        patientId={patientId}
        timeZone="Etc/GMT+5"
        appointments={[{ id: appointmentId, startsAt: '2025-03-20T15:00:00.000Z', typeName: 'Follow-up' }]}
      />
    </SessionReactContext.Provider>,
  );

describe('questionnaire panel of the patient dashboard', () => {
  it('lists the responses with date, score out of the maximum, band and a link to the result, and charts each form', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: responses },
      { path: '/api/patient-links', body: [] },
    ]);
    renderPanel();
    const rows = await screen.findAllByTestId('form-response');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('PHQ-9');
    expect(rows[0]).toHaveTextContent('03/10/2025');
    expect(rows[0]).toHaveTextContent('9 / 27');
    expect(rows[0]).toHaveTextContent('Mild');
    expect(within(rows[0]!).getByRole('link', { name: 'PHQ-9' })).toHaveAttribute('href', `/formresponse/result/${latest.id}`);
    expect(rows[1]).toHaveTextContent('42.0 / 100');
    expect(rows[2]).toHaveTextContent('Moderately severe');

    const chart = screen.getByRole('img', { name: 'PHQ-9 score by response, from 01/10/2025 to 03/10/2025: latest 9' });
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
    expect(screen.getAllByTestId('score-series')).toHaveLength(2);
    expect(screen.getByText('No questionnaire links for this patient.')).toBeInTheDocument();
  });

  it('creates a link for an outcome form and an appointment, shows its address, and lists it with Revoke', async () => {
    const user = userEvent.setup();
    let links: PatientLink[] = [];
    const { calls, fetchMock } = fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: { data: [], series: [] } },
      { method: 'POST', path: '/api/patient-links', status: 201, body: created },
      { method: 'DELETE', path: `/api/patient-links/${linkId}`, status: 204 },
    ]);
    // The link list answers what exists at the time of the call.
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (new URL(String(input), 'http://localhost').pathname === '/api/patient-links' && (init?.method ?? 'GET') === 'GET') {
        return new Response(JSON.stringify(links), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return answer(input, init);
    });
    renderPanel();
    expect(await screen.findByText('No questionnaire results yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send questionnaire' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send questionnaire' });
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: 'Outcome form' }));
    await user.click(await screen.findByRole('option', { name: 'GAD-7', hidden: true }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Appointment' }));
    await user.click(await screen.findByRole('option', { name: '03/20/2025 · 10:00 AM · Follow-up', hidden: true }));
    const days = within(dialog).getByRole('textbox', { name: 'Link valid for (days)' });
    await user.clear(days);
    await user.type(days, '14');
    links = [link];
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));

    expect(await within(dialog).findByTestId('link-url')).toHaveValue(created.url);
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ patientId, appointmentId, formCode: 12, customFormId: null, expiresInDays: 14, send: 'none' });
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(created.url));

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const listed = await screen.findByTestId('patient-link');
    expect(listed).toHaveTextContent('GAD-7');
    expect(listed).toHaveTextContent('Active');
    expect(listed).toHaveTextContent('Expires 03/17/2025');
    await user.click(within(listed).getByRole('button', { name: 'Revoke the GAD-7 link' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === `/api/patient-links/${linkId}`)).toBe(true),
    );
  });

  it('puts a server field error next to the field it concerns', async () => {
    const user = userEvent.setup();
    fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: { data: [], series: [] } },
      { path: '/api/patient-links', body: [] },
      {
        method: 'POST',
        path: '/api/patient-links',
        status: 400,
        body: { error: 'Please check the highlighted fields.', code: 'VALIDATION', fields: { appointmentId: 'invalid' } },
      },
    ]);
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Send questionnaire' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send questionnaire' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Outcome form' }));
    await user.click(await screen.findByRole('option', { name: 'PHQ-9', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Email to patient' }));
    const appointment = within(dialog).getByRole('combobox', { name: 'Appointment' });
    await waitFor(() => expect(appointment).toHaveAttribute('aria-invalid', 'true'));
  });
});
