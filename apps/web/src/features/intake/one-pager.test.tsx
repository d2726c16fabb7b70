import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OnePager } from '@pathwell/contracts/intake';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { OnePagerView } from './one-pager';

const PATH = '/api/patientappointments/one-pager';
const patientId = '77777777-7777-4777-8777-777777777771';
const appointmentId = '88888888-8888-4888-8888-888888888881';
const earlierVisit = '88888888-8888-4888-8888-888888888880';

const full: OnePager = {
  patient: { id: patientId, name: 'Marta Elena Quintero', dateOfBirth: '1970-03-21', age: 54, sex: 'Female' },
  appointment: {
    id: appointmentId,
    startsAt: '2025-03-20T14:30:00.000Z',
    startsAtText: '03/20/2025 09:30 AM',
    reason: 'follow_up',
    typeName: 'Post-procedure follow-up',
    roomName: 'Room 2',
    doctorName: 'Daniela Ortiz',
    status: 1,
    // 09:15 AM in the session's clinic (UTC-5).
    checkedInAt: '2025-03-20T14:15:00.000Z',
  },
  intake: {
    linkId: '99999999-9999-4999-8999-999999999991',
    status: 'completed',
    steps: [
      { step: 2, done: true },
      { step: 4, done: true },
      { step: 5, done: true },
      { step: 6, done: true },
    ],
    stepsDone: 4,
    stepsPlanned: 4,
    completedAt: '2025-03-20T13:00:00.000Z',
  },
  pain: {
    current: { current: 4, average: 4, best: 2, worst: 6 },
    previous: {
      appointmentId: earlierVisit,
      startsAt: '2025-01-15T16:00:00.000Z',
      scores: { current: 7, average: 4, best: 1, worst: 9 },
    },
    change: { current: -3, average: 0, best: 1, worst: -3 },
  },
  bodyMap: {
    current: {
      regions: [
        { id: 'lower-back', level: 5 },
        { id: 'right-buttock', level: 3 },
      ],
      count: 2,
    },
    previous: { appointmentId: earlierVisit, startsAt: '2025-01-15T16:00:00.000Z', count: 4 },
  },
  pros: [
    {
      responseId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
      formCode: 2,
      title: { en: 'Oswestry Disability Index (ODI)', es: 'Índice de discapacidad de Oswestry (ODI)' },
      submittedAt: '2025-03-20T13:00:00.000Z',
      score: 40,
      maximum: 100,
      band: 1,
      bandLabel: { en: 'Moderate disability', es: 'Discapacidad moderada' },
      previous: {
        responseId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa0',
        submittedAt: '2025-01-15T16:00:00.000Z',
        score: 60,
        change: -20,
        better: true,
        meetsMcid: true,
      },
    },
    {
      responseId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2',
      formCode: 11,
      title: { en: 'Patient Health Questionnaire-9 (PHQ-9)' },
      submittedAt: '2025-03-20T13:05:00.000Z',
      score: 9,
      maximum: 27,
      band: 1,
      bandLabel: { en: 'Mild' },
      previous: null,
    },
  ],
  allergies: { noneKnown: false, items: [{ name: 'Penicillin', reaction: 'Hives' }] },
  medications: {
    none: false,
    items: [
      { name: 'Gabapentin', dose: '300 mg', frequency: 'twice a day' },
      { name: 'Ibuprofen', dose: null, frequency: null },
    ],
  },
  historyForms: [
    {
      key: 'cf-bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1',
      step: 2,
      title: { en: 'Spine history' },
      done: true,
      responseId: 'cccccccc-cccc-4ccc-8ccc-ccccccccccc1',
    },
  ],
  consents: [
    {
      id: 'dddddddd-dddd-4ddd-8ddd-ddddddddddd1',
      kind: 'newPatientAgreement',
      title: 'New patient agreement',
      language: 'en',
      version: 'sha256:0123456789abcdef',
      signedAt: '2025-03-19T15:00:00.000Z',
      expiresAt: '2026-03-19T15:00:00.000Z',
      expired: false,
      pdfUrl: `/api/patients/${patientId}/consents/dddddddd-dddd-4ddd-8ddd-ddddddddddd1/pdf`,
    },
    {
      id: 'dddddddd-dddd-4ddd-8ddd-ddddddddddd0',
      kind: 'newPatientAgreement',
      title: 'New patient agreement',
      language: 'en',
      version: 'sha256:0000000000000000',
      signedAt: '2023-02-01T16:00:00.000Z',
      expiresAt: '2024-02-01T16:00:00.000Z',
      expired: true,
      pdfUrl: `/api/patients/${patientId}/consents/dddddddd-dddd-4ddd-8ddd-ddddddddddd0/pdf`,
    },
  ],
};

const empty: OnePager = {
  ...full,
  patient: { ...full.patient, sex: null },
  appointment: { ...full.appointment, status: 2, checkedInAt: null, doctorName: null, roomName: null, typeName: null },
  intake: null,
  pain: { current: null, previous: null, change: null },
  bodyMap: { current: null, previous: null },
  pros: [],
  allergies: null,
  medications: null,
  historyForms: [],
  consents: [],
};

function renderOnePager(answer: FakeRoute = { path: PATH, body: full }, shownPatientId = patientId) {
  const api = fakeApi([answer]);
  const view = renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <OnePagerView patientId={shownPatientId} appointmentId={appointmentId} />
    </SessionReactContext.Provider>,
    {
      path: '/patients/:patientId/appointments/:appointmentId/one-pager',
      initialPath: `/patients/${patientId}/appointments/${appointmentId}/one-pager`,
    },
  );
  return { ...api, ...view };
}

const section = (testId: string) => within(screen.getByTestId(testId));

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('one-pager', () => {
  it('shows the visit, pain against the last visit, the body map, scores with their change, history and consents', async () => {
    const { calls } = renderOnePager();
    await screen.findByTestId('one-pager');
    expect(calls.filter((call) => call.path === PATH).map((call) => call.query.get('appointmentId'))).toEqual([appointmentId]);

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Marta Elena Quintero');
    expect(screen.getByTestId('one-pager-patient')).toHaveTextContent('54 years old · Female · born 03/21/1970');
    const visit = screen.getByTestId('one-pager-visit');
    expect(visit).toHaveTextContent('Visit 03/20/2025 09:30 AM');
    expect(within(visit).getByTestId('appointment-status')).toHaveTextContent('Checking in');
    expect(screen.getByTestId('one-pager-check-in')).toHaveTextContent('Checked in 09:15 AM');
    expect(visit).toHaveTextContent('Follow-up · Post-procedure follow-up · Provider: Daniela Ortiz · Room: Room 2');
    expect(screen.getByTestId('one-pager-intake')).toHaveTextContent('Intake: 4 of 4 steps done · Complete');
    expect(within(screen.getByTestId('one-pager-intake')).getByText('Body map: done')).toBeInTheDocument();

    const pain = section('one-pager-pain');
    expect(pain.getByRole('columnheader', { name: 'Last visit 01/15/2025' })).toBeInTheDocument();
    const now = within(screen.getByTestId('pain-current'));
    expect(now.getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['4', '7', 'down 3']);
    expect(within(screen.getByTestId('pain-average')).getAllByRole('cell').at(-1)).toHaveTextContent('no change');
    expect(within(screen.getByTestId('pain-best')).getAllByRole('cell').at(-1)).toHaveTextContent('up 1');

    expect(screen.getByTestId('body-map-count')).toHaveTextContent('2 areas marked');
    expect(screen.getByTestId('body-map-previous')).toHaveTextContent('Last visit 01/15/2025: 4 areas down 2');
    expect(
      within(screen.getByTestId('body-map-regions'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Lower back — 5/10', 'Right buttock — 3/10']);

    const [odi, phq9] = screen.getAllByTestId('pro-row');
    expect(within(odi!).getByRole('link', { name: 'Oswestry Disability Index (ODI)' })).toHaveAttribute(
      'href',
      '/formresponse/result/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
    );
    expect(odi).toHaveTextContent('40 of 100');
    expect(odi).toHaveTextContent('Moderate disability');
    expect(odi).toHaveTextContent('down 20 (better), clinically important');
    expect(phq9).toHaveTextContent('9 of 27');
    expect(phq9).toHaveTextContent('Mild');
    expect(phq9).toHaveTextContent('first time');

    expect(screen.getByTestId('one-pager-allergies')).toHaveTextContent('Penicillin — Hives');
    expect(
      within(screen.getByTestId('one-pager-medications'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Gabapentin 300 mg, twice a day', 'Ibuprofen']);
    expect(within(screen.getByTestId('one-pager-history-forms')).getByRole('link', { name: 'Spine history' })).toHaveAttribute(
      'href',
      '/customformresponse/view/cccccccc-cccc-4ccc-8ccc-ccccccccccc1',
    );

    const [current, lapsed] = screen.getAllByTestId('consent');
    expect(current).toHaveTextContent('New patient agreement · Signed 03/19/2025 · expires 03/19/2026');
    expect(current).toHaveAttribute('data-expired', 'false');
    expect(lapsed).toHaveTextContent('New patient agreement · Signed 02/01/2023 · EXPIRED 02/01/2024');
    expect(lapsed).toHaveAttribute('data-expired', 'true');
  });

  it('prints from the keyboard, and leads back to the patient', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderOnePager();
    await screen.findByTestId('one-pager');
    const back = screen.getByRole('link', { name: 'Patient dashboard' });
    expect(back).toHaveAttribute('href', `/patients/patientdashboard/${patientId}`);
    back.focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says what is missing, part by part, when the visit has no intake', async () => {
    renderOnePager({ path: PATH, body: empty });
    await screen.findByTestId('one-pager');
    expect(screen.getByTestId('one-pager-patient')).toHaveTextContent('54 years old · sex not recorded · born 03/21/1970');
    expect(screen.getByTestId('one-pager-check-in')).toHaveTextContent('Not checked in');
    expect(screen.getByTestId('one-pager-visit')).toHaveTextContent('Follow-up · No provider assigned');
    expect(screen.getByTestId('one-pager-no-intake')).toHaveTextContent('No intake for this visit yet');
    expect(screen.getByTestId('one-pager-pain')).toHaveTextContent('Pain scores not given yet.');
    expect(screen.getByTestId('one-pager-body-map')).toHaveTextContent('Body map not marked yet.');
    expect(screen.getByTestId('one-pager-pros')).toHaveTextContent('No questionnaires answered for this visit.');
    expect(screen.getByTestId('one-pager-allergies')).toHaveTextContent('Not answered yet.');
    expect(screen.getByTestId('one-pager-medications')).toHaveTextContent('Not answered yet.');
    expect(screen.queryByTestId('one-pager-history-forms')).not.toBeInTheDocument();
    expect(screen.getByTestId('one-pager-consents')).toHaveTextContent('No signed consents.');
    expect(screen.queryAllByTestId('change')).toHaveLength(0);
  });

  it('shows the failure with a retry button when the one-pager cannot be read', async () => {
    const user = userEvent.setup();
    const { calls } = renderOnePager({
      path: PATH,
      status: 500,
      body: { error: 'Internal', code: 'INTERNAL', messageKey: 'unexpected' },
    });
    expect(await screen.findByTestId('one-pager-error')).toHaveTextContent('The one-pager could not be loaded.');
    expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
    const asked = calls.length;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.length).toBeGreaterThan(asked));
  });

  it('reads as not found for an unknown visit, or a visit of another patient than the address names', async () => {
    const unknown = renderOnePager({
      path: PATH,
      status: 404,
      body: { error: 'Not found', code: 'NOT_FOUND', messageKey: 'appointmentNotFound' },
    });
    expect(await screen.findByTestId('one-pager-error')).toHaveTextContent('This visit was not found.');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    unknown.unmount();

    renderOnePager({ path: PATH, body: full }, '77777777-7777-4777-8777-777777777779');
    expect(await screen.findByTestId('one-pager-error')).toHaveTextContent('This visit was not found.');
    expect(screen.queryByTestId('one-pager')).not.toBeInTheDocument();
  });

  it('says why a questionnaire answered before the wording was loaded has no score, in English and Spanish', async () => {
    const [odi] = full.pros;
    const unscored = {
      ...full,
      pros: [{ ...odi!, score: null, band: null, bandLabel: null, previous: null, notScored: 'wordingNotLoaded' as const }],
    };
    renderOnePager({ path: PATH, body: unscored });
    await screen.findByTestId('one-pager');
    const [row] = screen.getAllByTestId('pro-row');
    expect(row).toHaveTextContent("Not scored: answered before the clinic loaded this form's wording");
    expect(row).not.toHaveTextContent('of 100');
    await i18n.changeLanguage('es');
    expect(screen.getAllByTestId('pro-row')[0]).toHaveTextContent(
      'Sin puntuar: se respondió antes de que la clínica cargara el texto de este formulario',
    );
  });

  it('reads in Spanish', async () => {
    renderOnePager();
    await i18n.changeLanguage('es');
    await screen.findByTestId('one-pager');
    expect(screen.getByTestId('one-pager-patient')).toHaveTextContent('54 años · Female · nació el 03/21/1970');
    expect(within(screen.getByTestId('pain-current')).getAllByRole('cell').at(-1)).toHaveTextContent('baja 3');
    expect(screen.getAllByTestId('pro-row')[0]).toHaveTextContent('Discapacidad moderada');
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeInTheDocument();
  });
});
