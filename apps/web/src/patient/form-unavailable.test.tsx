import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { linkStorage } from './storage';
import { fakePatientApi, renderPatient, statusBody, TOKEN } from './test-helpers';

// Issue #24 §1: ODI and NDI links showed "Section 1 … 10" with bare options 0–5 when the clinic had not
// loaded the licensed wording. Such a link now tells the patient the clinic will contact them.
describe('a link to a form whose wording the clinic has not loaded', () => {
  it('says the clinic will contact the patient, asks nothing, and never loads the form', async () => {
    const api = fakePatientApi({ status: { body: statusBody({ formUnavailable: true, suggestedLanguage: 'es' }) } });
    renderPatient();
    const message = await screen.findByTestId('form-unavailable');
    expect(message).toHaveTextContent('Su clínica se pondrá en contacto con usted sobre este formulario');
    expect(message).toHaveTextContent('Riverside Spine & Pain se pondrá en contacto con usted');
    expect(screen.getByRole('heading', { level: 2 })).toHaveFocus();
    expect(screen.queryByLabelText('Apellido')).not.toBeInTheDocument();
    expect(screen.queryByText(/Section 1|Sección 1/)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByTestId('form-unavailable')).toHaveTextContent('Your clinic will contact you about this form');
    expect(api.calls.map((call) => call.path)).toEqual([`/api/patient-links/${TOKEN}/status`]);
  });

  it('also on a device that had opened the form before', async () => {
    linkStorage.setAccessToken(TOKEN, 'access-1');
    const api = fakePatientApi({ status: { body: statusBody({ formUnavailable: true }) } });
    renderPatient();
    expect(await screen.findByTestId('form-unavailable')).toHaveTextContent('There is nothing to fill in on this page');
    expect(api.calls.some((call) => call.path.endsWith('/form'))).toBe(false);
  });
});
