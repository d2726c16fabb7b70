import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffIntake } from '@pathwell/contracts/intake';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { PatientIntakeCard } from './patient-intake-card';

const patientId = '77777777-7777-4777-8777-777777777771';

const intake = (appointmentId: string, appointmentStartsAt: string): StaffIntake => ({
  linkId: appointmentId.replace('8888', '9999'),
  appointmentId,
  appointmentStartsAt,
  status: 'completed',
  createdAt: '2025-03-19T15:00:00.000Z',
  completedAt: '2025-03-20T13:00:00.000Z',
  steps: [{ step: 4, done: true }],
  forms: [],
  saved: { paperwork: null, history: null, vas: { current: 4, average: 4, best: 2, worst: 6 }, bodymap: null, payment: null },
  previousBodyMap: null,
  consents: [],
  insuranceCards: [],
});

describe('intake card', () => {
  it("links each visit's intake to its one-pager, named by the visit", async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/intake`,
        body: [
          intake('88888888-8888-4888-8888-888888888881', '2025-03-20T14:30:00.000Z'),
          intake('88888888-8888-4888-8888-888888888880', '2025-01-15T16:00:00.000Z'),
        ],
      },
    ]);
    renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const entries = await screen.findAllByTestId('intake-entry');
    expect(entries).toHaveLength(2);
    expect(within(entries[0]!).getByRole('link', { name: 'One-pager of the visit 03/20/2025 09:30 AM' })).toHaveAttribute(
      'href',
      `/patients/${patientId}/appointments/88888888-8888-4888-8888-888888888881/one-pager`,
    );
    expect(within(entries[1]!).getByTestId('intake-one-pager')).toHaveAttribute(
      'href',
      `/patients/${patientId}/appointments/88888888-8888-4888-8888-888888888880/one-pager`,
    );
    expect(within(entries[1]!).getByTestId('intake-one-pager')).toHaveTextContent('One-pager');
  });
});
