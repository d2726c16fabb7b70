import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Intervention, InterventionFormInfo, PlannedProcedure, VisitRecord } from '@pathwell/contracts/interventions';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { InterventionForm } from './intervention-form';
import { ProceduresCard } from './procedures-card';
import { VisitRecordModal } from './visit-record-modal';

type User = ReturnType<typeof userEvent.setup>;

/** Picks from one select's own list (Mantine renders a combobox and a listbox it controls). */
async function choose(user: User, box: HTMLElement, option: string | RegExp) {
  await user.click(box);
  await waitFor(() => expect(box).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(box.getAttribute('aria-controls')!)!;
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

const patientId = '77777777-7777-4777-8777-777777777771';
const doctorId = '22222222-2222-4222-8222-222222222222';
const tfesi = '88888888-8888-4888-8888-888888888881';
const lumbar = '88888888-8888-4888-8888-888888888882';
const morphine = '88888888-8888-4888-8888-888888888883';
const appointmentId = '99999999-9999-4999-8999-999999999991';

const info: InterventionFormInfo = {
  patient: { id: patientId, name: 'Rosa Delgado', dateOfBirth: '1961-04-12', doctorId },
  procedures: [{ id: '88888888-8888-4888-8888-888888888884', name: 'Spinal cord stimulator trial', cptCode: '63650' }],
  injections: [{ id: tfesi, name: 'Lumbar transforaminal epidural steroid injection', cptCode: '64483' }],
  bodyParts: [{ id: lumbar, name: 'Lumbar spine' }],
  directions: [],
  locations: [],
  adaLocations: [],
  medicines: [],
  painPumpMedicines: [{ id: morphine, name: 'Morphine, preservative-free', concentration: 25, unit: 'mg/mL' }],
  providers: [{ id: doctorId, name: 'Dana Reyes', providerType: 'Doctor' }],
  appointments: [],
  procedureNotesEnabled: true,
};

const saved = (overrides: Partial<Intervention> = {}): Intervention => ({
  id: '66666666-6666-4666-8666-666666666661',
  patientId,
  appointmentId: null,
  kind: 'injection',
  item: { id: tfesi, name: 'Lumbar transforaminal epidural steroid injection', cptCode: '64483' },
  bodyPart: null,
  direction: null,
  location: null,
  adaLocation: null,
  side: 'left',
  levels: ['L4-L5'],
  medicines: [],
  guidance: null,
  performedOn: '2026-03-03',
  provider: { id: doctorId, name: 'Dana Reyes' },
  providerType: 'Doctor',
  completion: 1,
  outcome: null,
  followUpPlan: null,
  pump: null,
  createdAt: '2026-03-03T15:00:00.000Z',
  updatedAt: '2026-03-03T15:00:00.000Z',
  ...overrides,
});

describe('intervention form', () => {
  it('records an injection with its levels and the patient’s own doctor as provider', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/interventions', status: 201, body: saved() }]);
    const onSaved = vi.fn();
    renderAt(
      <InterventionForm
        patientId={patientId}
        info={info}
        existing={null}
        defaults={{ appointmentId: null, today: '2026-03-03' }}
        onSaved={onSaved}
        onCancel={() => undefined}
      />,
    );
    const user = userEvent.setup();
    await choose(user, screen.getByRole('combobox', { name: /^Injection/ }), /Lumbar transforaminal/);
    await user.type(screen.getByRole('combobox', { name: /Spinal levels/ }), 'l4-l5{enter}');
    await user.click(screen.getByRole('button', { name: 'Save record' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      patientId,
      kind: 'injection',
      itemId: tfesi,
      levels: ['L4-L5'],
      providerId: doctorId,
      performedOn: '2026-03-03',
      completion: 1,
    });
  });

  it('records injectables with dose, volume and lot, and shows the note line they make (issue #24)', async () => {
    const triamcinolone = '88888888-8888-4888-8888-888888888885';
    const withInjectables: InterventionFormInfo = {
      ...info,
      medicines: [{ id: triamcinolone, name: 'Triamcinolone acetonide 40 mg/mL', strength: 40, unit: 'mg/mL', kind: 'steroid' }],
    };
    const { calls } = fakeApi([{ method: 'POST', path: '/api/interventions', status: 201, body: saved() }]);
    const onSaved = vi.fn();
    renderAt(
      <InterventionForm
        patientId={patientId}
        info={withInjectables}
        existing={null}
        defaults={{ appointmentId: null, today: '2026-03-03' }}
        onSaved={onSaved}
        onCancel={() => undefined}
      />,
    );
    const user = userEvent.setup();
    await choose(user, screen.getByRole('combobox', { name: /^Injection/ }), /Lumbar transforaminal/);
    await user.click(screen.getByRole('button', { name: 'Add medicine' }));
    const row = screen.getByTestId('medicine-given');
    await choose(user, within(row).getByRole('combobox', { name: 'Medicine' }), 'Triamcinolone acetonide 40 mg/mL');
    // No dose is assumed; the unit follows the concentration.
    expect(within(row).getByRole('textbox', { name: /Dose/ })).toHaveValue('');
    expect(within(row).getByRole('textbox', { name: 'Unit' })).toHaveValue('mg');
    await user.type(within(row).getByRole('textbox', { name: /Dose/ }), '40');
    await user.type(within(row).getByRole('textbox', { name: 'Volume (mL)' }), '1');
    await user.type(within(row).getByRole('textbox', { name: 'Lot' }), 'TK2291');
    expect(screen.getByTestId('medicines-in-note')).toHaveTextContent(
      'In the note: Triamcinolone acetonide 40 mg/mL: 40 mg, 1 mL, lot TK2291',
    );
    await user.click(screen.getByRole('button', { name: 'Save record' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      medicines: [{ medicineId: triamcinolone, dose: 40, unit: 'mg', volumeMl: 1, lot: 'TK2291' }],
    });
  });

  it('asks for the item before sending, and for the new dose of a pump refill whose dose changes', async () => {
    const { calls } = fakeApi([]);
    renderAt(
      <InterventionForm
        patientId={patientId}
        info={info}
        existing={null}
        defaults={{ appointmentId: null, today: '2026-03-03' }}
        onSaved={() => undefined}
        onCancel={() => undefined}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save record' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Pain pump visit' }));
    await user.click(screen.getByRole('button', { name: 'Add medicine' }));
    const refill = screen.getByTestId('pump-refill');
    await choose(user, within(refill).getByRole('combobox', { name: 'Pump medicine' }), 'Morphine, preservative-free');
    expect(within(refill).getByRole('textbox', { name: /Concentration/ })).toHaveValue('25');
    await choose(user, within(refill).getByRole('combobox', { name: 'Dose change' }), 'Increase');
    await user.click(screen.getByRole('button', { name: 'Save record' }));
    expect(await screen.findByText('Enter the new daily dose unless the dose is maintained')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });
});

describe('procedures card', () => {
  const planned: PlannedProcedure = {
    id: '55555555-5555-4555-8555-555555555551',
    patientId,
    item: { id: info.procedures[0]!.id, name: 'Spinal cord stimulator trial', cptCode: '63650' },
    status: 'authorisationRequested',
    plannedFor: null,
    compliance: {
      conservativeCareWeeks: 12,
      physicalTherapyCompleted: true,
      imagingCompleted: true,
      psychEvaluationCompleted: false,
      notes: null,
    },
    interventionId: null,
    updatedAt: '2026-03-01T00:00:00.000Z',
  };

  it('lists procedures with a link to the note, planned procedures with their checklist, and cohorts', async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/interventions`,
        body: [
          saved(),
          saved({
            id: '66666666-6666-4666-8666-666666666662',
            kind: 'pump',
            item: null,
            side: null,
            levels: [],
            pump: { procedure: null, reservoirVolumeMl: 20, refills: [], nextRefillDate: '2026-04-01' },
          }),
        ],
      },
      { path: `/api/patients/${patientId}/procedures`, body: [planned] },
      { path: `/api/patients/interventionforminfo/${patientId}`, body: info },
      {
        path: `/api/patients/${patientId}/studygroups`,
        body: [{ id: lumbar, name: 'Lumbar ESI outcomes 2026', assignedAt: '2026-03-01T00:00:00.000Z' }],
      },
    ]);
    renderAt(<ProceduresCard patientId={patientId} />);
    const [row, pumpRow] = await screen.findAllByTestId('procedure-row');
    if (!row || !pumpRow) throw new Error('two rows expected');
    // Pump visits have their note like every procedure (issue #24: the link was hidden for them).
    expect(await within(pumpRow).findByRole('link', { name: 'Note' })).toHaveAttribute(
      'href',
      `/patients/procedurenoteform/66666666-6666-4666-8666-666666666662/${patientId}/${doctorId}/pump`,
    );
    expect(row).toHaveTextContent('03/03/2026');
    expect(row).toHaveTextContent('Lumbar transforaminal epidural steroid injection');
    expect(row).toHaveTextContent('L4-L5 · Left · Dana Reyes');
    expect(await within(row).findByRole('link', { name: 'Note' })).toHaveAttribute(
      'href',
      `/patients/procedurenoteform/${saved().id}/${patientId}/${doctorId}/injection`,
    );
    const plannedRow = await screen.findByTestId('planned-procedure');
    expect(plannedRow).toHaveTextContent('checklist 2/3');
    expect(plannedRow).toHaveTextContent('Authorization requested');
    expect(await screen.findByText('Lumbar ESI outcomes 2026')).toBeInTheDocument();
  });

  it('shows the empty and error states', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/interventions`, body: [] },
      { path: `/api/patients/${patientId}/procedures`, status: 500, body: { error: 'boom', code: 'INTERNAL' } },
      { path: `/api/patients/interventionforminfo/${patientId}`, body: { ...info, procedureNotesEnabled: false } },
      { path: `/api/patients/${patientId}/studygroups`, body: [] },
    ]);
    renderAt(<ProceduresCard patientId={patientId} />);
    expect(await screen.findByText('No procedures, injections or pump visits recorded yet.')).toBeInTheDocument();
    expect(await screen.findByText('Not in any cohort.')).toBeInTheDocument();
    expect(await screen.findByText('This could not be loaded. Try again in a moment.')).toBeInTheDocument();
  });
});

describe('visit record', () => {
  const record: VisitRecord = {
    appointmentId,
    patientId,
    actionsTaken: [],
    diagnosisCodes: [],
    procedureCodes: [],
    note: null,
    recordedByName: null,
    updatedAt: null,
  };

  it('saves actions, codes picked or typed, and the note; "No Actions Taken" stands alone', async () => {
    const { calls } = fakeApi([
      { path: `/api/patientappointments/${appointmentId}/visitrecord`, body: record },
      { method: 'PUT', path: `/api/patientappointments/${appointmentId}/visitrecord`, body: { ...record, actionsTaken: [9] } },
      { path: '/api/appointmentcodes/recent', body: [{ code: '64483', uses: 3, clinicLabel: 'Lumbar TFESI' }] },
    ]);
    const onClose = vi.fn();
    renderAt(<VisitRecordModal appointmentId={appointmentId} patientId={patientId} onClose={onClose} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'No Actions Taken' }));
    expect(screen.getByRole('checkbox', { name: 'Administered Injection' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'No Actions Taken' }));
    await user.click(screen.getByRole('checkbox', { name: 'Administered Injection' }));
    await user.type(screen.getByRole('combobox', { name: /Diagnosis codes/ }), 'm54.16{enter}');
    await choose(user, screen.getByRole('combobox', { name: /Procedure codes/ }), '64483 — Lumbar TFESI');
    await user.type(screen.getByRole('textbox', { name: 'Visit note' }), 'Injection given');
    await user.click(screen.getByRole('button', { name: 'Save visit record' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      actionsTaken: [9],
      diagnosisCodes: ['M54.16'],
      procedureCodes: ['64483'],
      note: 'Injection given',
    });
  });

  it('refuses a malformed code before sending', async () => {
    fakeApi([
      { path: `/api/patientappointments/${appointmentId}/visitrecord`, body: record },
      { path: '/api/appointmentcodes/recent', body: [] },
    ]);
    renderAt(<VisitRecordModal appointmentId={appointmentId} patientId={patientId} onClose={() => undefined} />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('combobox', { name: /Diagnosis codes/ }), '5416{enter}');
    expect(await screen.findByText('5416 is not an ICD-10-CM code (e.g. M54.16)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save visit record' })).toBeDisabled();
  });

  it('records a new pain complaint at the visit', async () => {
    const { calls } = fakeApi([
      { path: `/api/patientappointments/${appointmentId}/visitrecord`, body: record },
      { path: '/api/appointmentcodes/recent', body: [] },
      {
        method: 'PATCH',
        path: `/api/patientappointments/recordnewpain/${appointmentId}`,
        body: {
          id: patientId,
          appointmentId,
          score: 6,
          bodyLocationIds: [],
          note: 'Worse at night',
          recordedAt: '2026-03-03T15:00:00.000Z',
        },
      },
    ]);
    renderAt(<VisitRecordModal appointmentId={appointmentId} patientId={patientId} onClose={() => undefined} />);
    const user = userEvent.setup();
    const form = await screen.findByTestId('new-pain-form');
    expect(within(form).getByRole('button', { name: 'Record pain' })).toBeDisabled();
    await choose(user, within(form).getByRole('combobox', { name: 'Pain (0–10)' }), '6');
    await user.type(within(form).getByRole('textbox', { name: 'What the patient says' }), 'Worse at night');
    await user.click(within(form).getByRole('button', { name: 'Record pain' }));
    await vi.waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ score: 6, note: 'Worse at night' }),
    );
  });
});
