import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionType, type RenderableForm } from '@pathwell/contracts/forms';
import type { FormResponseDetail } from '@pathwell/contracts/patient-links';
import { instrumentForm } from '@pathwell/instruments';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { Component as FormResponsePage } from '../../routes/questionnaires/form-response';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const responseId = '77777777-7777-4777-8777-777777777777';
const previousId = '88888888-8888-4888-8888-888888888888';
const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const phq9Answers = { q1: 2, q2: 2, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 0, q9: 0, q10: 1 };

const phq9Response: FormResponseDetail = {
  id: responseId,
  patientId,
  appointmentId: null,
  kind: 'instrument',
  formCode: 11,
  customFormId: null,
  formTitle: 'PHQ-9',
  version: 'PHQ-9',
  language: 'es',
  headlineScore: 9,
  band: 1,
  submittedAt: '2025-03-10T15:30:00.000Z',
  criticalFindings: [],
  patientName: 'María Núñez',
  form: instrumentForm(11),
  answers: phq9Answers,
  scores: { total: 9, severity: 1, item9Positive: 0 },
  previous: {
    id: previousId,
    submittedAt: '2025-01-10T15:00:00.000Z',
    scores: { total: 16, severity: 3, item9Positive: 0 },
    headlineScore: 16,
    change: -7,
    better: true,
    meetsMcid: true,
  },
};

const renderResult = (path = `/formresponse/result/${responseId}`) =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <FormResponsePage />
    </SessionReactContext.Provider>,
    { path: path.startsWith('/custom') ? '/customformresponse/view/:id' : '/formresponse/result/:id', initialPath: path },
  );

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('questionnaire result page', () => {
  it('shows the headline score out of its maximum with its band, the change and the MCID badge', async () => {
    fakeApi([{ path: `/api/formresponses/${responseId}`, body: phq9Response }]);
    renderResult();
    expect(await screen.findByRole('heading', { name: 'PHQ-9' })).toBeInTheDocument();
    expect(screen.getByTestId('headline-score')).toHaveTextContent('9 / 27');
    expect(screen.getByTestId('headline-band')).toHaveTextContent('Mild');
    const change = screen.getByTestId('response-change');
    expect(change).toHaveTextContent('−7 points, better');
    expect(change).toHaveTextContent('Since 01/10/2025 (score 16).');
    expect(within(change).getByTestId('mcid-badge')).toHaveTextContent('Clinically important change (MCID)');
    expect(screen.getByRole('link', { name: 'María Núñez' })).toHaveAttribute('href', `/patients/patientdashboard/${patientId}`);
    // Clinic time (UTC−5), MM/DD/YYYY and 12-hour.
    expect(screen.getByTestId('response-summary')).toHaveTextContent('Submitted: 03/10/2025 10:30 AM');
    expect(screen.getByTestId('response-summary')).toHaveTextContent('Answered in: Spanish');
  });

  it('lists every score and every answer with the option label in the language the patient answered in', async () => {
    fakeApi([{ path: `/api/formresponses/${responseId}`, body: phq9Response }]);
    renderResult();
    const scores = await screen.findByTestId('scores-table');
    const rows = within(scores).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'PHQ-9 total9',
      'Depression severityMild',
      'Item 9 (self-harm thoughts) endorsedItem 9 not endorsed',
    ]);
    const answers = screen.getAllByTestId('response-answer');
    expect(answers).toHaveLength(10);
    const q1Option = phq9Response.form.questions[0]!.options!.find((option) => option.value === 2)!;
    expect(answers[0]).toHaveTextContent(q1Option.label.es!);
  });

  it('says when the change is smaller than the minimal clinically important difference, and for a first response that there is nothing to compare', async () => {
    fakeApi([
      {
        path: `/api/formresponses/${responseId}`,
        body: { ...phq9Response, previous: { ...phq9Response.previous!, change: 2, better: false, meetsMcid: false } },
      },
    ]);
    const first = renderResult();
    const change = await screen.findByTestId('response-change');
    expect(change).toHaveTextContent('+2 points, worse');
    expect(screen.queryByTestId('mcid-badge')).not.toBeInTheDocument();
    expect(change).toHaveTextContent('Smaller than the minimal clinically important difference.');
    first.unmount();

    fakeApi([{ path: `/api/formresponses/${responseId}`, body: { ...phq9Response, previous: null } }]);
    renderResult();
    expect(await screen.findByText('First response to this form: no earlier score to compare.')).toBeInTheDocument();
  });

  it('shows a custom form with its signature image and the time it was signed', async () => {
    const form: RenderableForm = {
      kind: 'custom',
      formCode: null,
      customFormId: '99999999-9999-4999-8999-999999999999',
      version: '2',
      title: { en: 'Consent' },
      languages: ['en'],
      sections: [],
      questions: [
        { id: 'agree', type: QuestionType.CHECKBOX, text: { en: 'I agree to the treatment plan' }, required: true },
        { id: 'sign', type: QuestionType.SIGNATURE, text: { en: 'Sign here' }, required: true },
      ],
    };
    fakeApi([
      {
        path: `/api/formresponses/${responseId}`,
        body: {
          ...phq9Response,
          kind: 'custom',
          formCode: null,
          customFormId: form.customFormId,
          formTitle: 'Consent',
          version: '2',
          language: 'en',
          headlineScore: null,
          band: null,
          form,
          answers: { agree: true, sign: { image: 'data:image/png;base64,iVBORw0KGgo=', signedAt: '2025-03-10T15:31:00.000Z' } },
          scores: {},
          previous: null,
        } satisfies FormResponseDetail,
      },
    ]);
    renderResult(`/customformresponse/view/${responseId}`);
    const answers = await screen.findAllByTestId('response-answer');
    expect(answers[0]).toHaveTextContent('I agree to the treatment plan');
    expect(answers[0]).toHaveTextContent('Yes');
    expect(within(answers[1]!).getByRole('img', { name: "Patient's signature" })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(answers[1]).toHaveTextContent('Signed 03/10/2025 10:31 AM');
    expect(screen.queryByTestId('headline-band')).not.toBeInTheDocument();
    // Nothing to score on this form: no empty score panels.
    expect(screen.queryByTestId('headline-score')).not.toBeInTheDocument();
    expect(screen.queryByTestId('response-scores')).not.toBeInTheDocument();
  });

  it('says so when the response does not exist (or belongs to another clinic)', async () => {
    fakeApi([]);
    renderResult();
    expect(await screen.findByTestId('response-error')).toHaveTextContent('This questionnaire response was not found.');
  });
});
