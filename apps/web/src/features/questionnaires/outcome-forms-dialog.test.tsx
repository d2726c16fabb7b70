import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Appointment } from '@pathwell/contracts/appointments';
import { SessionReactContext } from '../../app/session-context';
import { Component as AppointmentsPage } from '../../routes/patients/appointments';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { OutcomeFormsAction } from './outcome-forms-dialog';

const appointmentId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const renderAction = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <OutcomeFormsAction appointment={{ id: appointmentId, startsAt: '2025-03-20T15:00:00.000Z', patientName: 'María Núñez' }} />
    </SessionReactContext.Provider>,
  );

describe('outcome forms of an appointment', () => {
  it('shows the clinic default with its note, and saves the checked forms in form-code order', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi([
      { path: '/api/patientappointments/assigned-pro', body: { appointmentId, formCodes: [11, 2], isDefault: true } },
      {
        method: 'PUT',
        path: '/api/patientappointments/assigned-pro',
        body: { appointmentId, formCodes: [2, 11, 12], isDefault: false },
      },
      {
        path: `/api/patientappointments/getunfilledforms/${appointmentId}`,
        body: [{ formCode: 11, title: 'PHQ-9', slug: 'phq9' }],
      },
    ]);
    renderAction();
    await user.click(screen.getByRole('button', { name: 'Outcome forms for María Núñez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Outcome forms for this visit' });
    expect(await within(dialog).findByTestId('assigned-default')).toHaveTextContent('Default from clinic settings');
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(15);
    expect(within(dialog).getByRole('checkbox', { name: /PHQ-9/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /^Oswestry Disability Index \(ODI\)/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /SF-36 \(RAND-36\)/ })).not.toBeChecked();
    // Names in the staff member's language only.
    expect(within(dialog).queryByText('Índice de Discapacidad de Oswestry (ODI)')).not.toBeInTheDocument();
    expect(await within(dialog).findByTestId('unfilled-forms')).toHaveTextContent('PHQ-9');

    await user.click(within(dialog).getByRole('checkbox', { name: /GAD-7/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ appointmentId, formCodes: [2, 11, 12] }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('cannot assign a form whose licensed wording the clinic has not loaded, and says why (issue #24 §1)', async () => {
    const user = userEvent.setup();
    fakeApi([
      { path: '/api/patientappointments/assigned-pro', body: { appointmentId, formCodes: [11], isDefault: true } },
      { path: `/api/patientappointments/getunfilledforms/${appointmentId}`, body: [] },
      {
        path: '/api/instruments/availability',
        body: {
          data: Array.from({ length: 15 }, (_, index) => ({
            formCode: index + 1,
            available: ![2, 3, 7, 13].includes(index + 1),
            languages: [2, 3, 7, 13].includes(index + 1) ? [] : ['en'],
          })),
        },
      },
    ]);
    renderAction();
    await user.click(screen.getByRole('button', { name: 'Outcome forms for María Núñez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Outcome forms for this visit' });
    const odi = await within(dialog).findByRole('checkbox', { name: /^Oswestry Disability Index \(ODI\) — wording not loaded/ });
    expect(odi).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: /Neck Disability Index.*wording not loaded/ })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: /PHQ-9/ })).toBeEnabled();
    expect(within(dialog).getAllByText(/the licensed wording of this form is not loaded for this clinic/)).toHaveLength(4);
    expect(within(dialog).getByText(/cannot be given to patients/)).toBeInTheDocument();
  });

  it('says when every assigned form is completed, without the default note for a chosen set', async () => {
    const user = userEvent.setup();
    fakeApi([
      { path: '/api/patientappointments/assigned-pro', body: { appointmentId, formCodes: [], isDefault: false } },
      { path: `/api/patientappointments/getunfilledforms/${appointmentId}`, body: [] },
    ]);
    renderAction();
    await user.click(screen.getByRole('button', { name: 'Outcome forms for María Núñez' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Every assigned form is completed.')).toBeInTheDocument();
    await within(dialog).findAllByRole('checkbox');
    expect(within(dialog).queryByTestId('assigned-default')).not.toBeInTheDocument();
  });

  it('is offered on each row of the appointments list', async () => {
    const user = userEvent.setup();
    const row: Appointment = {
      id: appointmentId,
      patient: { id: ids.admin, fullName: 'María Núñez', birthDate: '1980-04-09' },
      doctor: null,
      appointmentType: null,
      room: null,
      startsAt: '2025-03-20T15:00:00.000Z',
      durationMinutes: 30,
      status: 2,
      reason: null,
      notes: null,
      externalId: null,
      painScore: null,
      bodyLocationIds: [],
      checkedInAt: null,
      checkInDelayedUntil: null,
    };
    const empty = { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] };
    fakeApi([
      {
        method: 'POST',
        path: '/api/patientappointments/filtered',
        body: { totalRecords: 1, pageNumber: 0, pageSize: 15, data: [row], message: '' },
      },
      { path: '/api/bodylocations', body: empty },
      { path: '/api/rooms', body: empty },
      { path: '/api/customfields', body: empty },
      { path: '/api/users/providers', body: [] },
      { path: '/api/patientappointments/assigned-pro', body: { appointmentId, formCodes: [11], isDefault: false } },
      { path: `/api/patientappointments/getunfilledforms/${appointmentId}`, body: [] },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <AppointmentsPage />
      </SessionReactContext.Provider>,
    );
    const [listed] = await screen.findAllByTestId('appointment-row');
    await user.click(within(listed!).getByRole('button', { name: 'Outcome forms for María Núñez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Outcome forms for this visit' });
    expect(await within(dialog).findByRole('checkbox', { name: /PHQ-9/ })).toBeChecked();
  });
});
