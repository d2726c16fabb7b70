import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { linkStorage } from './storage';
import { fakePatientApi, renderPatient, sampleForm, statusBody, TOKEN } from './test-helpers';

async function verifyIdentity(user = userEvent.setup()) {
  await user.type(await screen.findByLabelText('Last name'), 'Lopez');
  await user.type(screen.getByLabelText('Date of birth'), '04271980');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByTestId('progress');
  return user;
}

const progress = () => screen.getByTestId('progress').textContent;

describe('patient questionnaire', () => {
  it('verifies identity, pages forward and back, and enforces a required answer', async () => {
    const api = fakePatientApi();
    renderPatient();
    expect(await screen.findByText('Riverside Spine & Pain')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Health check' })).toBeInTheDocument();
    const user = await verifyIdentity();
    expect(api.callsTo('/verify')[0]?.body).toEqual({ lastName: 'Lopez', dateOfBirth: '04/27/1980' });
    expect(api.callsTo('/form')[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(screen.getByText('Hello Maria')).toBeInTheDocument();
    expect(screen.getByText('Form by Riverside')).toBeInTheDocument();

    expect(progress()).toBe('Question 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This field is required');
    expect(screen.getAllByRole('radio')[0]).toHaveAttribute('aria-describedby', expect.stringContaining(alert.id));

    await user.click(screen.getByRole('radio', { name: 'No' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(progress()).toBe('Question 2 of 3');
    const heading = screen.getByRole('heading', { name: 'How is your mood?' });
    expect(heading).toHaveFocus();
    // Three short Likert points sit in one row.
    expect(screen.getByRole('radiogroup')).toHaveClass('pw-scale');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(progress()).toBe('Question 1 of 3');
    expect(screen.getByRole('radio', { name: 'No' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
  });

  it('shows a conditional question when the answer it depends on is given', async () => {
    fakePatientApi();
    renderPatient();
    const user = await verifyIdentity();
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(progress()).toBe('Question 1 of 4');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'How many cigarettes a day?' })).toBeInTheDocument();
    const input = screen.getByRole('spinbutton', { name: 'How many cigarettes a day?' });
    await user.type(input, '500');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This number is out of range');
    await user.clear(input);
    await user.type(input, '5');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(progress()).toBe('Question 3 of 4');
  });

  it('reviews every answer and jumps back to change one', async () => {
    const api = fakePatientApi();
    renderPatient();
    const user = await verifyIdentity();
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: 'Fair' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('textbox', { name: 'Anything else?' }), 'Sleeping badly');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(screen.getByRole('heading', { name: 'Review your answers' })).toHaveFocus();
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Do you smoke?NoChange',
      'How is your mood?FairChange',
      'Anything else?Sleeping badlyChange',
    ]);

    await user.click(screen.getByRole('button', { name: 'Change answer to: How is your mood?' }));
    expect(progress()).toBe('Question 2 of 3');
    expect(screen.getByRole('radio', { name: 'Fair' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Good' }));
    await user.click(screen.getByRole('button', { name: 'Review answers' }));
    expect(within(screen.getAllByRole('listitem')[1]!).getByText('Good')).toBeInTheDocument();

    // Each page change saved the draft at once, with the position the patient is on.
    await waitFor(() => expect(api.callsTo('/draft', 'PUT').at(-1)?.body).toMatchObject({ position: 3, language: 'en' }));
    expect(api.callsTo('/draft', 'PUT').at(-1)?.body).toMatchObject({ answers: { smoke: 2, mood: 2, notes: 'Sleeping badly' } });

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('thanks')).toHaveTextContent('Your answers were sent to Riverside Spine & Pain.');
    expect(api.callsTo('/submit')[0]?.body).toMatchObject({
      answers: { smoke: 2, mood: 2, notes: 'Sleeping badly' },
      language: 'en',
    });
    expect(linkStorage.accessToken(TOKEN)).toBeNull();
    expect(linkStorage.draft(TOKEN)).toBeNull();
  });

  it('saves a typed answer after a short pause without a page change', async () => {
    const api = fakePatientApi();
    renderPatient();
    const user = await verifyIdentity();
    await user.click(screen.getByRole('radio', { name: 'No' }));
    expect(linkStorage.draft(TOKEN)).toMatchObject({ answers: { smoke: 2 }, unsynced: true });
    await waitFor(() => expect(api.callsTo('/draft', 'PUT')).toHaveLength(1), { timeout: 2000 });
    expect(api.callsTo('/draft', 'PUT')[0]?.body).toEqual({ answers: { smoke: 2 }, position: 0, language: 'en' });
    await waitFor(() => expect(linkStorage.draft(TOKEN)?.unsynced).toBe(false));
    expect(await screen.findByText('Your answers are saved.')).toBeInTheDocument();
  });

  it('keeps answers on the device when the draft cannot be saved', async () => {
    fakePatientApi({ draftSave: ['network'] });
    renderPatient();
    const user = await verifyIdentity();
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/You seem to be offline/)).toBeInTheDocument();
    expect(linkStorage.draft(TOKEN)).toEqual({ answers: { smoke: 2 }, position: 1, language: 'en', unsynced: true });
  });

  it('resumes at the draft position after a reload, without asking for identity again', async () => {
    linkStorage.setAccessToken(TOKEN, 'access-9');
    const api = fakePatientApi({ draft: { answers: { smoke: 2, mood: 1 }, position: 2, language: 'en' } });
    renderPatient();
    expect(await screen.findByRole('heading', { name: 'Anything else?' })).toBeInTheDocument();
    expect(progress()).toBe('Question 3 of 3');
    expect(api.callsTo('/verify')).toHaveLength(0);
    expect(api.callsTo('/form')[0]?.headers.get('Authorization')).toBe('Bearer access-9');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Fair' })).toBeChecked();
  });

  it('prefers answers kept on the device that never reached the server', async () => {
    linkStorage.setAccessToken(TOKEN, 'access-9');
    linkStorage.setDraft(TOKEN, { answers: { smoke: 2, mood: 0 }, position: 2, language: 'en', unsynced: true });
    fakePatientApi({ draft: { answers: { smoke: 2 }, position: 1, language: 'en' } });
    renderPatient();
    expect(await screen.findByRole('heading', { name: 'Anything else?' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Bad' })).toBeChecked();
  });

  it('asks for identity again when the stored access has ended', async () => {
    linkStorage.setAccessToken(TOKEN, 'old');
    const api = fakePatientApi();
    api.fetchMock.mockImplementationOnce(async () => new Response(JSON.stringify(statusBody()), { status: 200 }));
    api.fetchMock.mockImplementationOnce(
      async () => new Response(JSON.stringify({ error: 'Token is not valid', code: 'UNAUTHENTICATED' }), { status: 401 }),
    );
    renderPatient();
    expect(await screen.findByRole('heading', { name: 'Confirm who you are' })).toBeInTheDocument();
    expect(linkStorage.accessToken(TOKEN)).toBeNull();
  });

  it('retries a submission after a network failure with the same idempotency key', async () => {
    linkStorage.setAccessToken(TOKEN, 'access-1');
    const api = fakePatientApi({
      draft: { answers: { smoke: 2, mood: 1 }, position: 3, language: 'en' },
      submit: [
        'network',
        'network',
        'network',
        { body: { message: 'Form Response added successfully', responseId: '9b2f7c1e-2a4d-4b8e-9f00-1234567890ab' } },
      ],
    });
    renderPatient();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    // Two automatic retries, then the patient is told and presses Submit again.
    expect(await screen.findByText(/We could not send your answers/)).toBeInTheDocument();
    expect(api.callsTo('/submit')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('thanks')).toBeInTheDocument();
    const keys = api.callsTo('/submit').map((call) => (call.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sends the patient to the first problem the server reports', async () => {
    linkStorage.setAccessToken(TOKEN, 'access-1');
    fakePatientApi({
      draft: { answers: { smoke: 2, mood: 1 }, position: 3, language: 'en' },
      submit: [
        { status: 400, body: { error: 'Validation failed', code: 'VALIDATION', fields: { 'answers.mood': 'optionInvalid' } } },
      ],
    });
    renderPatient();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose one of the options shown');
    expect(progress()).toBe('Question 2 of 3');
  });
});

describe('link states and identity', () => {
  it('says in Spanish that a completed link was already used', async () => {
    const api = fakePatientApi({ status: { body: statusBody({ status: 'completed', suggestedLanguage: 'es' }) } });
    renderPatient();
    expect(await screen.findByTestId('gone-completed')).toHaveTextContent('Este enlace ya se ha utilizado');
    expect(screen.getByRole('heading', { level: 1, name: 'Control de salud' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.lang).toBe('es');
    expect(api.calls).toHaveLength(1);
  });

  it('says an expired link has expired, and switches language on request', async () => {
    fakePatientApi({ status: { status: 410, body: { error: 'expired', code: 'GONE' } } });
    renderPatient();
    expect(await screen.findByTestId('gone-expired')).toHaveTextContent(
      'This link has expired — please ask the clinic for a new one.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Español' }));
    expect(screen.getByTestId('gone-expired')).toHaveTextContent('Este enlace ha caducado; pida a la clínica uno nuevo.');
  });

  it('the identity page links staff to their sign-in, and Exit forgets the access on this device', async () => {
    fakePatientApi();
    linkStorage.setAccessToken(TOKEN, null);
    renderPatient();
    expect(await screen.findByRole('link', { name: 'Clinic staff? Sign in' })).toHaveAttribute('href', '/signin');
    const exit = screen.getByRole('link', { name: 'Exit' });
    expect(exit).toHaveAttribute('href', '/exit');
    linkStorage.setAccessToken(TOKEN, 'access-stale');
    exit.addEventListener('click', (event) => event.preventDefault());
    await userEvent.setup().click(exit);
    expect(linkStorage.accessToken(TOKEN)).toBeNull();
  });

  it('shows the thank-you and exit pages in the patient language', async () => {
    const { unmount } = renderPatient('/thankyou');
    expect(await screen.findByTestId('thankYou')).toHaveTextContent('The clinic has what you sent.');
    unmount();
    renderPatient('/exit');
    expect(await screen.findByTestId('exit')).toHaveTextContent('You have left your forms');
  });

  it('shows the mismatch message, then the lockout page', async () => {
    fakePatientApi({
      verify: [
        {
          status: 400,
          body: {
            error: 'Validation failed',
            code: 'VALIDATION',
            fields: { lastName: 'identityMismatch' },
            params: { attemptsLeft: 4 },
          },
        },
        { status: 429, body: { code: 'RATE_LIMITED', messageKey: 'identityLocked', params: { minutes: 15 } } },
      ],
    });
    renderPatient();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Last name')).toHaveFocus();
    await user.type(screen.getByLabelText('Last name'), 'Smith');
    await user.type(screen.getByLabelText('Date of birth'), '13/01/1990');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Date of birth'));
    await user.type(screen.getByLabelText('Date of birth'), '02311982');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('This date does not exist; check the month and the day')).toBeInTheDocument();
    expect(screen.getByLabelText('Date of birth')).toHaveAttribute('inputmode', 'numeric');
    await user.clear(screen.getByLabelText('Date of birth'));
    await user.type(screen.getByLabelText('Date of birth'), '01131990');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The last name or date of birth does not match our records 4 tries left before a 15-minute pause.',
    );
    expect(screen.getByLabelText('Last name')).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('gone-locked')).toHaveTextContent('too many attempts');
  });

  it('keeps an English-only form in English and tells a Spanish speaker why', async () => {
    const englishOnly = {
      ...sampleForm,
      languages: ['en' as const],
      languageNotice: { en: 'No validated Spanish translation exists.', es: 'No existe una traducción validada al español.' },
    };
    linkStorage.setAccessToken(TOKEN, 'access-1');
    fakePatientApi({ form: englishOnly, status: { body: statusBody({ languages: ['en'] }) } });
    renderPatient();
    await screen.findByTestId('progress');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Español' }));
    expect(screen.getByTestId('language-notice')).toHaveTextContent('No existe una traducción validada al español.');
    expect(screen.getByRole('heading', { name: 'Do you smoke?' })).toBeInTheDocument();
    expect(screen.getByTestId('progress')).toHaveTextContent('Pregunta 1 de 3');
  });

  it('tells a patient whose link is in Spanish, without a click, that this form is in English only', async () => {
    const englishOnly = {
      ...sampleForm,
      languages: ['en' as const],
      languageNotice: { en: 'No validated Spanish translation exists.', es: 'No existe una traducción validada al español.' },
    };
    fakePatientApi({ form: englishOnly, status: { body: statusBody({ languages: ['en'], suggestedLanguage: 'es' }) } });
    renderPatient();
    expect(await screen.findByRole('button', { name: 'Continuar' })).toBeInTheDocument();
    expect(screen.getByTestId('language-notice')).toBeInTheDocument();
  });

  it("links the terms and privacy pages in a new tab, in the patient's language", async () => {
    fakePatientApi({ status: { status: 410, body: { error: 'expired', code: 'GONE' } } });
    renderPatient();
    await screen.findByTestId('gone-expired');
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/termsandconditions?lang=en');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Español' }));
    const privacy = screen.getByRole('link', { name: 'Privacidad' });
    expect(privacy).toHaveAttribute('href', '/privacypolicy?lang=es');
    expect(privacy).toHaveAttribute('target', '_blank');
    expect(privacy).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows a not-valid page for a path that is not a patient link', async () => {
    fakePatientApi();
    renderPatient('/patients/unknown/abc');
    expect(await screen.findByText('This link is not valid')).toBeInTheDocument();
  });

  it('opens with a 6-digit code emailed to the address on file instead of last name and date of birth', async () => {
    const api = fakePatientApi({
      verifyCode: [
        { status: 400, body: { code: 'VALIDATION', fields: { code: 'codeWrong' } } },
        { body: { accessToken: 'access-code', expiresAt: '2030-01-01T00:00:00Z' } },
      ],
    });
    renderPatient();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Email me a code instead' }));
    expect(await screen.findByRole('heading', { name: 'Enter the code we emailed you' })).toBeInTheDocument();
    expect(screen.getByText('We sent a 6-digit code to m***@example.test. It works for 10 minutes.')).toBeInTheDocument();
    const input = screen.getByLabelText('Code');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(input, '12a3');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code must be 6 digits');
    expect(api.callsTo('/verifycode')).toHaveLength(0);
    await user.type(input, '456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This code is not right');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByTestId('progress');
    expect(api.callsTo('/verifycode').at(-1)?.body).toEqual({ code: '123456' });
    expect(api.callsTo('/form')[0]?.headers.get('Authorization')).toBe('Bearer access-code');
  });

  it('says so when the clinic has no email for the patient', async () => {
    fakePatientApi({ emailCode: [{ status: 409, body: { code: 'CONFLICT', messageKey: 'noEmailOnFile' } }] });
    renderPatient();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Email me a code instead' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The clinic has no email address for you');
    expect(screen.getByLabelText('Last name')).toBeInTheDocument();
  });
});
