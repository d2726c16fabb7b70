import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PatientAllergy } from '@pathwell/contracts/intake-record';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AllergiesList } from './allergies-list';

const patientId = '77777777-7777-4777-8777-777777777771';
const base = `/api/patients/${patientId}/allergies`;
const allergy: PatientAllergy = {
  id: '99999999-9999-4999-8999-999999999991',
  name: 'Penicillin',
  reaction: 'Hives',
  linkId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('allergies on the Medicines card', () => {
  it('lists the recorded allergies with their reaction', async () => {
    fakeApi([{ path: `/api/patients/${patientId}/allergies`, body: [allergy] }]);
    renderAt(<AllergiesList patientId={patientId} />);
    expect(await screen.findByRole('listitem')).toHaveTextContent('Penicillin (Hives)');
  });

  const latex: PatientAllergy = { ...allergy, id: '99999999-9999-4999-8999-999999999992', name: 'Latex', reaction: null };

  it('removes an allergy with the keyboard only after it is confirmed, then shows the list without it', async () => {
    const user = userEvent.setup();
    const api = fakeApi([
      { path: base, body: [allergy, latex] },
      { method: 'POST', path: `${base}/${latex.id}/remove`, body: latex },
    ]);
    renderAt(<AllergiesList patientId={patientId} />);
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    const remove = screen.getByRole('button', { name: 'Remove the allergy Latex' });
    remove.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Remove Latex from the allergies?' });
    // Cancelling removes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    screen.getByRole('button', { name: 'Remove the allergy Latex' }).focus();
    await user.keyboard('{Enter}');
    const after = fakeApi([
      { path: base, body: [allergy] },
      { method: 'POST', path: `${base}/${latex.id}/remove`, body: latex },
    ]);
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove allergy' });
    confirm.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Latex removed from the allergies.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('listitem')).toHaveTextContent('Penicillin');
    expect(after.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([`${base}/${latex.id}/remove`]);
  });

  it("shows the server's refusal inside the dialog and keeps the allergy listed", async () => {
    const user = userEvent.setup();
    fakeApi([
      { path: base, body: [allergy] },
      {
        method: 'POST',
        path: `${base}/${allergy.id}/remove`,
        status: 404,
        body: { error: 'Allergy not found', code: 'NOT_FOUND', messageKey: 'allergyNotFound' },
      },
    ]);
    renderAt(<AllergiesList patientId={patientId} />);
    await user.click(await screen.findByRole('button', { name: 'Remove the allergy Penicillin' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove allergy' }));
    expect(await screen.findByTestId('confirm-remove-allergy-error')).toHaveTextContent('Allergy not found');
    expect(screen.getByRole('listitem')).toHaveTextContent('Penicillin');
  });

  it('says when none are recorded, and when they cannot be loaded', async () => {
    fakeApi([{ path: `/api/patients/${patientId}/allergies`, body: [] }]);
    const { unmount } = renderAt(<AllergiesList patientId={patientId} />);
    expect(await screen.findByText('No allergies recorded')).toBeInTheDocument();
    unmount();
    fakeApi([{ path: `/api/patients/${patientId}/allergies`, status: 500, body: { error: 'x', code: 'INTERNAL' } }]);
    renderAt(<AllergiesList patientId={patientId} />);
    expect(await screen.findByText('The allergies could not be loaded.')).toBeInTheDocument();
  });
});
