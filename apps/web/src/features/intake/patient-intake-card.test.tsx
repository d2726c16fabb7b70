import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IntakeChange, StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import type { ManagedItem } from '@pathwell/contracts/managed-lists';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { i18n } from '../../lib/i18n';
import { currentFirst, PatientIntakeCard } from './patient-intake-card';

const patientId = '77777777-7777-4777-8777-777777777771';
const oxycodoneId = '66666666-6666-4666-8666-666666666661';

const intake = (
  appointmentId: string,
  appointmentStartsAt: string,
  overrides: Partial<StaffIntakeDetail> = {},
): StaffIntakeDetail => ({
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
  changes: [],
  reconciled: null,
  ...overrides,
});
const visit = '88888888-8888-4888-8888-888888888881';
const changes: IntakeChange[] = [
  {
    field: 'email',
    onFile: { email: 'ana@example.test' },
    answer: { email: 'ana.new@example.test' },
    differs: true,
    blocked: null,
  },
  {
    field: 'primaryInsurance',
    onFile: null,
    answer: { payer: 'Aetna', memberId: 'W123', relationshipToInsured: 'self' },
    differs: true,
    blocked: null,
  },
  {
    field: 'mobilePhone',
    onFile: { number: '(512) 555-0101' },
    answer: { number: '(512) 555-0101' },
    differs: false,
    blocked: null,
  },
  { field: 'sexAssignedAtBirth', onFile: null, answer: { value: 'intersex' }, differs: true, blocked: 'notCoded' },
];

describe('intake card', () => {
  it("links each visit's intake to its one-pager, named by the visit", async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/intake`,
        body: [
          intake(visit, '2025-03-20T14:30:00.000Z'),
          intake('88888888-8888-4888-8888-888888888880', '2025-01-15T16:00:00.000Z'),
        ],
      },
    ]);
    renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const [first] = await screen.findAllByTestId('intake-entry');
    expect(within(first!).getByRole('link', { name: 'One-pager of the visit 03/20/2025 09:30 AM' })).toHaveAttribute(
      'href',
      `/patients/${patientId}/appointments/${visit}/one-pager`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show 1 earlier intake' }));
    const entries = screen.getAllByTestId('intake-entry');
    expect(within(entries[1]!).getByTestId('intake-one-pager')).toHaveAttribute(
      'href',
      `/patients/${patientId}/appointments/88888888-8888-4888-8888-888888888880/one-pager`,
    );
  });

  it('shows the finished intake first though three replaced links of the same visit are newer, the rest on demand', async () => {
    const replaced = (n: number) =>
      intake(`88888888-8888-4888-8888-88888888888${n}`, '2025-03-20T14:30:00.000Z', { status: 'revoked', completedAt: null });
    const done = intake('88888888-8888-4888-8888-888888888885', '2025-03-20T14:30:00.000Z');
    const closed = intake('88888888-8888-4888-8888-888888888886', '2025-02-01T14:30:00.000Z', { status: 'accountClosed' });
    fakeApi([{ path: `/api/patients/${patientId}/intake`, body: [replaced(2), replaced(3), replaced(4), done, closed] }]);
    renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const [first] = await screen.findAllByTestId('intake-entry');
    expect(screen.getAllByTestId('intake-entry')).toHaveLength(1);
    expect(within(first!).getByText('Complete')).toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'Show 4 earlier intakes' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(screen.getAllByTestId('intake-entry')).toHaveLength(5);
    expect(screen.getAllByText('Replaced')).toHaveLength(3);
    // A link the patient's own account closure ended is not "replaced".
    expect(screen.getByText('Closed with the account')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide earlier intakes' }));
    expect(screen.getAllByTestId('intake-entry')).toHaveLength(1);
  });

  it('puts an open intake first, else the latest finished one', () => {
    const a = { status: 'revoked' as const, id: 'a' };
    const b = { status: 'completed' as const, id: 'b' };
    const c = { status: 'active' as const, id: 'c' };
    expect(currentFirst([a, b, c]).map((entry) => entry.id)).toEqual(['c', 'a', 'b']);
    expect(currentFirst([a, b]).map((entry) => entry.id)).toEqual(['b', 'a']);
    expect(currentFirst([a]).map((entry) => entry.id)).toEqual(['a']);
  });

  it("shows the paperwork on file against the patient's answer and accepts the ticked fields", async () => {
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/intake`, body: [intake(visit, '2025-03-20T14:30:00.000Z', { changes })] },
      { method: 'POST', path: `/api/patients/${patientId}/intake/${visit.replace('8888', '9999')}/accept`, body: [] },
    ]);
    renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const table = await screen.findByTestId('intake-changes');
    expect(within(table).getByText('3 answers differ from the record')).toBeInTheDocument();
    const insurance = within(table).getByTestId('intake-change-primaryInsurance');
    expect(insurance).toHaveTextContent('Nothing on file');
    expect(insurance).toHaveTextContent('Payer: Aetna · Member ID: W123 · Relationship: Self');
    expect(within(table).getByTestId('intake-change-mobilePhone')).toHaveTextContent('Same as on file');
    const blocked = within(table).getByTestId('intake-change-sexAssignedAtBirth');
    expect(within(blocked).queryByRole('checkbox')).toBeNull();
    expect(blocked).toHaveTextContent('Intersex');
    const accept = within(table).getByTestId('intake-accept');
    expect(accept).toBeDisabled();
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Accept Email' }));
    await userEvent.click(accept);
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path.endsWith('/accept'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/accept'))!.body).toEqual({ fields: ['email'] });
  });

  it('in Spanish, the same table', async () => {
    fakeApi([{ path: `/api/patients/${patientId}/intake`, body: [intake(visit, '2025-03-20T14:30:00.000Z', { changes })] }]);
    try {
      renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
      await i18n.changeLanguage('es');
      const table = await screen.findByTestId('intake-changes');
      expect(within(table).getAllByText(/Respuesta del paciente/).length).toBeGreaterThan(0);
      expect(within(table).getByTestId('intake-change-primaryInsurance')).toHaveTextContent('Aseguradora: Aetna');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("maps the intake's medications to the medicines list and ticks its allergies, in one step", async () => {
    const history = {
      allergies: [{ name: 'Penicillin', reaction: 'Hives' }],
      medications: [
        { name: 'Oxycodone', dose: '10 mg', frequency: 'every 6 hours' },
        { name: 'Ibuprofen', dose: '400 mg', frequency: 'as needed' },
      ],
    };
    const linkId = visit.replace('8888', '9999');
    const oxycodone: ManagedItem = {
      id: oxycodoneId,
      listType: 'medicines',
      name: 'Oxycodone 10 mg',
      isActive: true,
      sortOrder: 0,
      attributes: { strength: 10, unit: 'mg', route: 'oral', isOpioid: true, mmeConversionFactor: 1.5 },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const formulary = { totalRecords: 1, pageNumber: 0, pageSize: 999, data: [oxycodone] };
    const { calls } = fakeApi([
      {
        path: `/api/patients/${patientId}/intake`,
        body: [
          intake(visit, '2025-03-20T14:30:00.000Z', {
            steps: [{ step: 2, done: true }],
            saved: { paperwork: null, history, vas: null, bodymap: null, payment: null },
          }),
        ],
      },
      { path: '/api/medicines', body: formulary },
      { method: 'POST', path: `/api/patients/${patientId}/intake/${linkId}/reconcile`, body: { medicines: [], allergies: [] } },
    ]);
    renderAt(<PatientIntakeCard patientId={patientId} timeZone="Etc/GMT+5" />);
    await userEvent.click(await screen.findByTestId('intake-reconcile'));
    const dialog = await screen.findByRole('dialog');
    const [oxy] = within(dialog).getAllByTestId('reconcile-medication');
    expect(oxy).toHaveTextContent('Oxycodone · 10 mg · every 6 hours');
    // Nothing is chosen for staff: no medicine, no dose.
    expect(within(oxy!).getByLabelText('Units per dose')).toHaveValue('');
    await userEvent.type(within(oxy!).getByTestId('reconcile-medicine-select'), 'Oxy');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(within(oxy!).getByTestId('reconcile-medicine-select')).toHaveValue('Oxycodone 10 mg');
    await userEvent.click(within(dialog).getByTestId('reconcile-save'));
    expect(within(oxy!).getAllByText(/required/i).length).toBeGreaterThan(0);
    await userEvent.type(within(oxy!).getByLabelText('Units per dose'), '1');
    await userEvent.type(within(oxy!).getByLabelText('Doses per day'), '4');
    expect(within(dialog).getByRole('checkbox', { name: 'Penicillin — Hives' })).toBeChecked();
    await userEvent.click(within(dialog).getByTestId('reconcile-save'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/reconcile'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/reconcile'))!.body).toEqual({
      medicines: [{ index: 0, medicineId: oxycodoneId, unitsPerDose: 1, dosesPerDay: 4 }],
      allergies: [0],
    });
  });
});
