import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePatientApi, renderPatient } from './test-helpers';

const mismatch = {
  status: 400,
  body: { error: 'Validation failed', code: 'VALIDATION', fields: { lastName: 'identityMismatch' } },
};

async function failIdentityOnce(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Last name'), 'Quintero');
  await user.type(screen.getByLabelText('Date of birth'), '11031968');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('alert');
}

describe('request portal access', () => {
  it('is offered only after the details did not match, and sends what the patient typed', async () => {
    const api = fakePatientApi({ verify: [mismatch] });
    renderPatient();
    const user = userEvent.setup();
    expect(await screen.findByLabelText('Last name')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Ask the clinic for help/ })).not.toBeInTheDocument();
    await failIdentityOnce(user);
    await user.click(screen.getByRole('button', { name: 'Your details do not match? Ask the clinic for help' }));

    await user.click(await screen.findByRole('button', { name: 'Send request' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Your full name')).toHaveFocus();
    expect(api.callsTo('/access-request')).toHaveLength(0);

    await user.type(screen.getByLabelText('Your full name'), 'Ana Quintero');
    await user.type(screen.getByLabelText('Date of birth (optional)'), '1103196');
    await user.type(screen.getByLabelText(/Phone number or email/), '512 555 0147');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Date of birth (optional)'), '8');
    await user.type(screen.getByLabelText('Anything the clinic should know (optional)'), 'I changed my last name.');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByTestId('access-request-sent')).toHaveTextContent('The clinic has your request');
    expect(api.callsTo('/access-request', 'POST').map((call) => call.body)).toEqual([
      { name: 'Ana Quintero', dateOfBirth: '11/03/1968', contact: '512 555 0147', message: 'I changed my last name.' },
    ]);
  });

  it('is offered on the locked page too, and says so when the clinic already has enough requests', async () => {
    fakePatientApi({
      verify: [{ status: 429, body: { code: 'RATE_LIMITED', messageKey: 'identityLocked', params: { minutes: 15 } } }],
      accessRequest: [{ status: 429, body: { code: 'RATE_LIMITED', messageKey: 'accessRequestsTooMany' } }],
    });
    renderPatient();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Last name'), 'Quintero');
    await user.type(screen.getByLabelText('Date of birth'), '11031968');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('gone-locked')).toHaveTextContent('too many attempts');
    await user.click(screen.getByRole('button', { name: /Ask the clinic for help/ }));
    await user.type(await screen.findByLabelText('Your full name'), 'Ana Quintero');
    await user.type(screen.getByLabelText(/Phone number or email/), 'ana@example.test');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The clinic already has your request');
  });

  it('reads in Spanish', async () => {
    fakePatientApi({ verify: [mismatch] });
    renderPatient();
    const user = userEvent.setup();
    await failIdentityOnce(user);
    await user.click(screen.getByRole('button', { name: 'Español' }));
    await user.click(await screen.findByRole('button', { name: '¿Sus datos no coinciden? Pida ayuda a la clínica' }));
    expect(await screen.findByRole('heading', { name: 'Pedir acceso a la clínica' })).toBeInTheDocument();
  });
});
