import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffAccessRequest } from '@pathwell/contracts/patient-links';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AccessRequestsCard } from './access-requests-card';

const patientId = '77777777-7777-4777-8777-777777777771';
const request = (id: string, handledAt: string | null): StaffAccessRequest => ({
  id,
  createdAt: '2025-03-20T14:30:00.000Z',
  appointmentId: null,
  name: 'Ana Quintero',
  dateOfBirth: null,
  contact: '(512) 555-0147',
  message: 'I married; my last name changed.',
  handledAt,
  handledByName: handledAt ? 'Sam Staff' : null,
});

describe('access requests on the patient dashboard', () => {
  it('shows the open requests with what was typed, and marks one handled', async () => {
    const open = '66666666-6666-4666-8666-666666666661';
    const { calls } = fakeApi([
      {
        path: `/api/patients/${patientId}/access-requests`,
        body: [request(open, null), request('66666666-6666-4666-8666-666666666662', '2025-03-19T10:00:00.000Z')],
      },
      { method: 'POST', path: `/api/patients/${patientId}/access-requests/${open}/handled`, status: 204 },
    ]);
    renderAt(<AccessRequestsCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const card = await screen.findByTestId('access-requests');
    expect(card).toHaveTextContent('1 request for access');
    expect(card).toHaveTextContent('Date of birth given: not given');
    expect(card).toHaveTextContent('Call back on: (512) 555-0147');
    expect(card).toHaveTextContent('I married; my last name changed.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Mark handled' }));
    expect(calls.some((call) => call.method === 'POST' && call.path.endsWith(`${open}/handled`))).toBe(true);
  });

  it('shows nothing when every request is handled', async () => {
    const { calls } = fakeApi([
      {
        path: `/api/patients/${patientId}/access-requests`,
        body: [request('66666666-6666-4666-8666-666666666662', '2025-03-19T10:00:00.000Z')],
      },
    ]);
    renderAt(<AccessRequestsCard patientId={patientId} timeZone="Etc/GMT+5" />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('access-requests')).not.toBeInTheDocument();
  });
});
