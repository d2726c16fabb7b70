import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ManagedItem } from '@pathwell/contracts/managed-lists';
import type { PatientMedicine } from '@pathwell/contracts/mme';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { i18n } from '../../lib/i18n';
import { MedicinesCard } from './medicines-card';

const patientId = '77777777-7777-4777-8777-777777777771';
const oxycodoneId = '88888888-8888-4888-8888-888888888881';
const fentanylId = '88888888-8888-4888-8888-888888888882';
const alprazolamId = '88888888-8888-4888-8888-888888888883';

const row = (id: string, medicine: Partial<PatientMedicine>): PatientMedicine => ({
  id,
  medicineId: oxycodoneId,
  name: 'Oxycodone 10 mg',
  strength: 10,
  unit: 'mg',
  route: 'oral',
  isOpioid: true,
  isBenzodiazepine: false,
  mmeConversionFactor: 1.5,
  unitsPerDose: 1,
  dosesPerDay: 4,
  dailyMme: 60,
  note: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  stoppedAt: null,
  ...medicine,
});
const rows = [
  row('99999999-9999-4999-8999-999999999991', {}),
  row('99999999-9999-4999-8999-999999999992', {
    medicineId: fentanylId,
    name: 'Fentanyl patch 25 mcg/h',
    strength: 25,
    unit: 'mcg/h',
    route: 'transdermal',
    mmeConversionFactor: 2.4,
    dosesPerDay: 1,
    note: 'patch',
  }),
  row('99999999-9999-4999-8999-999999999993', {
    medicineId: alprazolamId,
    name: 'Alprazolam 0.5 mg',
    strength: 0.5,
    isOpioid: false,
    isBenzodiazepine: true,
    mmeConversionFactor: null,
    dosesPerDay: 2,
    dailyMme: null,
    note: 'notOpioid',
  }),
];
const item = (id: string, name: string, attributes: Record<string, unknown>): ManagedItem => ({
  id,
  listType: 'medicines',
  name,
  isActive: true,
  sortOrder: 0,
  attributes,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const formulary = {
  totalRecords: 2,
  pageNumber: 0,
  pageSize: 999,
  data: [
    item(oxycodoneId, 'Oxycodone 10 mg', { strength: 10, unit: 'mg', route: 'oral', isOpioid: true, mmeConversionFactor: 1.5 }),
    item(alprazolamId, 'Alprazolam 0.5 mg', { strength: 0.5, unit: 'mg', isOpioid: false, isBenzodiazepine: true }),
  ],
};
const base = `/api/patients/${patientId}/medicines`;

describe('medicines and MME on the patient dashboard', () => {
  it('shows each medicine with how it is taken, the total and every flag', async () => {
    fakeApi([{ path: base, body: rows }]);
    renderAt(<MedicinesCard patientId={patientId} />);
    expect(await screen.findByTestId('mme-total-value')).toHaveTextContent('120 MME/day');
    expect(screen.getByTestId('mme-flag-90')).toHaveTextContent('≥ 90 MME/day');
    expect(screen.queryByTestId('mme-flag-50')).not.toBeInTheDocument();
    expect(screen.getByTestId('mme-flag-benzo')).toHaveTextContent('Opioid + benzodiazepine');
    const lines = screen.getAllByTestId('medicine-row');
    expect(lines[0]).toHaveTextContent('1 × 4 a day · 60 MME/day');
    expect(lines[1]).toHaveTextContent('Patches worn at once: 1 · 60 MME/day');
    expect(lines[2]).toHaveTextContent('Benzodiazepine');
    expect(lines[2]).toHaveTextContent('not an opioid');
    expect(screen.getByText(/CDC Clinical Practice Guideline/)).toBeInTheDocument();
  });

  it('shows the ≥ 50 badge alone between 50 and 90, and the empty and error states', async () => {
    fakeApi([{ path: base, body: [rows[0]] }]);
    const { unmount } = renderAt(<MedicinesCard patientId={patientId} />);
    expect(await screen.findByTestId('mme-flag-50')).toHaveTextContent('≥ 50 MME/day');
    expect(screen.queryByTestId('mme-flag-90')).not.toBeInTheDocument();
    expect(screen.queryByTestId('mme-flag-benzo')).not.toBeInTheDocument();
    unmount();

    fakeApi([{ path: base, body: [] }]);
    const empty = renderAt(<MedicinesCard patientId={patientId} />);
    expect(await screen.findByText('No current medicines.')).toBeInTheDocument();
    expect(screen.queryByTestId('mme-total')).not.toBeInTheDocument();
    empty.unmount();

    fakeApi([{ path: base, status: 500, body: { error: 'boom', code: 'INTERNAL' } }]);
    renderAt(<MedicinesCard patientId={patientId} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The medicines could not be loaded.');
  });

  it('adds a medicine with a preview of its MME, and puts server field errors by the input', async () => {
    const { calls } = fakeApi([
      { path: base, body: [] },
      { path: '/api/medicines', body: formulary },
      {
        method: 'POST',
        path: base,
        status: 400,
        body: {
          error: 'Some values are not valid',
          code: 'VALIDATION',
          messageKey: 'valuesInvalid',
          fields: { medicineId: 'invalid' },
        },
      },
    ]);
    renderAt(<MedicinesCard patientId={patientId} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add medicine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a medicine' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();

    await user.click(within(dialog).getByTestId('medicine-select'));
    await user.click(await screen.findByRole('option', { name: 'Oxycodone 10 mg', hidden: true }));
    const doses = within(dialog).getByRole('textbox', { name: /Doses per day/ });
    await user.clear(doses);
    await user.type(doses, '4');
    expect(within(dialog).getByTestId('medicine-preview')).toHaveTextContent('This adds 60 MME/day.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This value is not valid')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST' && call.path === base)?.body).toEqual({
      medicineId: oxycodoneId,
      unitsPerDose: 1,
      dosesPerDay: 4,
    });
  });

  it('offers only medicines the patient takes, and says "not converted" for buprenorphine, never 0 (issue #24)', async () => {
    const buprenorphineId = '88888888-8888-4888-8888-888888888884';
    fakeApi([
      {
        path: base,
        body: [
          row('99999999-9999-4999-8999-999999999994', {
            medicineId: buprenorphineId,
            name: 'Buprenorphine 5 mcg/h',
            unit: 'mcg/h',
            route: 'transdermal',
            dailyMme: null,
            note: 'notConverted',
          }),
        ],
      },
      {
        path: '/api/medicines',
        body: {
          ...formulary,
          data: [
            ...formulary.data,
            item(buprenorphineId, 'Buprenorphine 5 mcg/h', {
              strength: 5,
              unit: 'mcg/h',
              route: 'transdermal',
              isOpioid: true,
              mmeNotConverted: true,
            }),
            item('88888888-8888-4888-8888-888888888885', 'Triamcinolone 40 mg/mL', {
              kind: 'steroid',
              strength: 40,
              unit: 'mg/mL',
            }),
          ],
        },
      },
    ]);
    renderAt(<MedicinesCard patientId={patientId} />);
    const line = (await screen.findAllByTestId('medicine-row'))[0]!;
    expect(line).toHaveTextContent('not converted: the CDC table gives no factor for this opioid');
    expect(line).not.toHaveTextContent('0 MME/day');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add medicine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a medicine' });
    await user.click(within(dialog).getByTestId('medicine-select'));
    expect(await screen.findByRole('option', { name: 'Oxycodone 10 mg', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Triamcinolone 40 mg/mL', hidden: true })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Buprenorphine 5 mcg/h', hidden: true }));
    expect(within(dialog).getByTestId('medicine-preview')).toHaveTextContent('not converted');
  });

  it('changes how a medicine is taken and stops one', async () => {
    const { calls } = fakeApi([
      { path: base, body: [rows[0]] },
      { path: '/api/medicines', body: formulary },
      { method: 'PUT', path: `${base}/${rows[0]!.id}`, body: { ...rows[0], dosesPerDay: 2, dailyMme: 30 } },
      { method: 'POST', path: `${base}/${rows[0]!.id}/stop`, body: { ...rows[0], stoppedAt: '2026-02-01T00:00:00.000Z' } },
    ]);
    renderAt(<MedicinesCard patientId={patientId} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change how Oxycodone 10 mg is taken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change how Oxycodone 10 mg is taken' });
    const doses = within(dialog).getByRole('textbox', { name: /Doses per day/ });
    await user.clear(doses);
    await user.type(doses, '2');
    expect(within(dialog).getByTestId('medicine-preview')).toHaveTextContent('This adds 30 MME/day.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ unitsPerDose: 1, dosesPerDay: 2 });

    await user.click(screen.getByRole('button', { name: 'Stop Oxycodone 10 mg' }));
    await waitFor(() => expect(calls.some((call) => call.path === `${base}/${rows[0]!.id}/stop`)).toBe(true));
  });

  it('speaks Spanish', async () => {
    fakeApi([{ path: base, body: [rows[0]] }]);
    renderAt(<MedicinesCard patientId={patientId} />);
    await i18n.changeLanguage('es');
    expect(await screen.findByTestId('mme-total-value')).toHaveTextContent('60 MME/día');
    expect(screen.getByTestId('medicine-row')).toHaveTextContent('1 × 4 al día');
    await i18n.changeLanguage('en');
  });
});
