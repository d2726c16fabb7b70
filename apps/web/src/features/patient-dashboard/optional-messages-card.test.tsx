import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '@pathwell/contracts/roles';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { OptionalMessagesCard } from './optional-messages-card';

const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const path = `/api/patients/${patientId}/optionalmessages`;

const renderCard = (role: Role, choice = { email: true, text: true }) =>
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <OptionalMessagesCard patientId={patientId} choice={choice} />
    </SessionReactContext.Provider>,
  );

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('optional messages card (decision 0065)', () => {
  it('Staff record a withdrawal with the keyboard alone: the choice is sent, confirmed, and the button rests', async () => {
    const { calls } = fakeApi([{ method: 'PUT', path, body: { email: false, text: true } }]);
    const user = userEvent.setup();
    renderCard('Staff');
    const email = screen.getByRole('checkbox', { name: 'Patient agreed to optional emails' });
    const save = screen.getByRole('button', { name: "Record the patient's choice" });
    expect(email).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Patient agreed to optional text messages' })).toBeChecked();
    expect(save).toBeDisabled();

    await user.tab();
    expect(email).toHaveFocus();
    await user.keyboard(' ');
    expect(email).not.toBeChecked();
    expect(save).toBeEnabled();
    await user.keyboard('{Enter}');

    expect(await screen.findByText("The patient's choice of optional messages is recorded.")).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      expect.objectContaining({ path, body: { email: false, text: true } }),
    ]);
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('a refused save says why and keeps the choice on screen to try again', async () => {
    fakeApi([{ method: 'PUT', path, status: 403, body: { error: 'Forbidden', code: 'FORBIDDEN', message: 'notAllowed' } }]);
    const user = userEvent.setup();
    renderCard('Doctor');
    await user.click(screen.getByRole('checkbox', { name: 'Patient agreed to optional text messages' }));
    await user.click(screen.getByRole('button', { name: "Record the patient's choice" }));
    expect(await screen.findByTestId('optional-messages-error')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Patient agreed to optional text messages' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: "Record the patient's choice" })).toBeEnabled();
  });

  it('in Spanish', async () => {
    fakeApi([]);
    renderCard('Admin');
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Mensajes opcionales' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'El paciente aceptó correos electrónicos opcionales' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Registrar la elección del paciente' })).toBeDisabled();
  });

  it('a System Manager sees the choice but cannot record it', () => {
    fakeApi([]);
    renderCard('SystemManager', { email: false, text: true });
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByTestId('optional-messages-read-only')).toHaveTextContent('Optional emails: NoOptional texts: Yes');
  });
});
