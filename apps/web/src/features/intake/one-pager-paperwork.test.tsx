import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { OnePagerPaperwork } from './one-pager-paperwork';

const patientId = '77777777-7777-4777-8777-777777777771';
const linkId = '99999999-9999-4999-8999-999999999991';

const intake = {
  linkId,
  changes: [
    {
      field: 'primaryInsurance',
      onFile: { payer: 'Blue Cross', memberId: 'XJ1' },
      answer: { payer: 'Aetna', memberId: 'W123', groupNumber: 'G-7' },
      differs: true,
      blocked: null,
    },
    {
      field: 'emergencyContact',
      onFile: { name: 'Luis', phone: '(512) 555-0162' },
      answer: { name: 'Luis', phone: '(512) 555-0162' },
      differs: false,
      blocked: null,
    },
    { field: 'pharmacy', onFile: null, answer: { name: 'H-E-B Pharmacy' }, differs: true, blocked: null },
  ],
} as unknown as StaffIntakeDetail;

describe('paperwork on the one-pager', () => {
  it("shows the patient's insurance, emergency contact and pharmacy, with what is on file where it differs", async () => {
    fakeApi([{ path: `/api/patients/${patientId}/intake`, body: [intake] }]);
    renderAt(<OnePagerPaperwork patientId={patientId} linkId={linkId} />);
    const section = await screen.findByTestId('one-pager-paperwork');
    expect(within(section).getByText('2 answers differ from the record')).toBeInTheDocument();
    const rows = within(section).getAllByRole('row');
    expect(rows[0]).toHaveTextContent(
      'InsurancePayer: Aetna · Member ID: W123 · Group: G-7On file: Payer: Blue Cross · Member ID: XJ1',
    );
    expect(rows[1]).toHaveTextContent('Emergency contactName: Luis · Phone: (512) 555-0162');
    expect(rows[1]).not.toHaveTextContent('On file');
    expect(rows[2]).toHaveTextContent('PharmacyName: H-E-B PharmacyOn file: Nothing on file');
  });

  it('shows nothing for an intake without paperwork', async () => {
    const { calls } = fakeApi([{ path: `/api/patients/${patientId}/intake`, body: [{ ...intake, changes: [] }] }]);
    renderAt(<OnePagerPaperwork patientId={patientId} linkId={linkId} />);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId('one-pager-paperwork')).toBeNull();
  });
});
