import { queryOptions } from '@tanstack/react-query';
import type { MedicineUse, PatientMedicine, PatientMedicineInput } from '@pathwell/contracts/mme';
import { api } from '../../lib/api-client';

const base = (patientId: string) => `/api/patients/${encodeURIComponent(patientId)}/medicines`;

export const medicineKeys = {
  patient: (patientId: string) => ['medicines', patientId] as const,
};

/** The card shows its own loading and error states, so the global toast stays quiet. */
export const medicineQueries = {
  current: (patientId: string) =>
    queryOptions({
      queryKey: [...medicineKeys.patient(patientId), 'current'],
      queryFn: () => api.get<PatientMedicine[]>(base(patientId), { background: true }),
      meta: { silent: true },
    }),
};

export const medicineApi = {
  add: (patientId: string, input: PatientMedicineInput) => api.post<PatientMedicine>(base(patientId), input),
  change: (patientId: string, rowId: string, input: MedicineUse) =>
    api.put<PatientMedicine>(`${base(patientId)}/${encodeURIComponent(rowId)}`, input),
  stop: (patientId: string, rowId: string) => api.post<PatientMedicine>(`${base(patientId)}/${encodeURIComponent(rowId)}/stop`),
};
