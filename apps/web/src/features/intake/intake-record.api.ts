import { queryOptions } from '@tanstack/react-query';
import type {
  IntakeChange,
  IntakeRecordField,
  PatientAllergy,
  ReconciledIntake,
  ReconcileIntake,
} from '@pathwell/contracts/intake-record';
import { api } from '../../lib/api-client';
import { medicineKeys } from '../medicines/medicines.api';

const patientBase = (patientId: string) => `/api/patients/${encodeURIComponent(patientId)}`;
const intakeBase = (patientId: string, linkId: string) => `${patientBase(patientId)}/intake/${encodeURIComponent(linkId)}`;

/** Allergies sit under the medicines' key: whatever refreshes the Medicines card refreshes them too. */
export const allergyQueries = {
  list: (patientId: string) =>
    queryOptions({
      queryKey: [...medicineKeys.patient(patientId), 'allergies'],
      queryFn: () => api.get<PatientAllergy[]>(`${patientBase(patientId)}/allergies`, { background: true }),
      meta: { silent: true },
    }),
};

export const allergyApi = {
  /** Takes an allergy off the record (kept for history by the server); answers the allergy removed. */
  remove: (patientId: string, allergyId: string) =>
    api.post<PatientAllergy>(`${patientBase(patientId)}/allergies/${encodeURIComponent(allergyId)}/remove`),
};

export const intakeRecordApi = {
  accept: (patientId: string, linkId: string, fields: IntakeRecordField[]) =>
    api.post<IntakeChange[]>(`${intakeBase(patientId, linkId)}/accept`, { fields }),
  reconcile: (patientId: string, linkId: string, input: ReconcileIntake) =>
    api.post<ReconciledIntake>(`${intakeBase(patientId, linkId)}/reconcile`, input),
};
