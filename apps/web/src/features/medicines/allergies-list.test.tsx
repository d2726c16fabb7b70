import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PatientAllergy } from '@pathwell/contracts/intake-record';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AllergiesList } from './allergies-list';

const patientId = '77777777-7777-4777-8777-777777777771';
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
