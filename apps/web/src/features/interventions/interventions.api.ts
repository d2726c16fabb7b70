import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ComplianceInput,
  Intervention,
  InterventionFormInfo,
  InterventionInput,
  PatientStudyGroup,
  PlannedProcedure,
  PlannedProcedureUpsert,
  PumpRefillsDue,
  RecentCode,
  VisitRecord,
  VisitRecordInput,
} from '@pathwell/contracts/interventions';
import { api, apiRequest } from '../../lib/api-client';

export const interventionKeys = {
  all: ['interventions'] as const,
  patient: (patientId: string) => ['interventions', 'patient', patientId] as const,
  one: (id: string) => ['interventions', 'one', id] as const,
  formInfo: (patientId: string) => ['interventions', 'form-info', patientId] as const,
  planned: (patientId: string) => ['interventions', 'planned', patientId] as const,
  cohorts: (patientId: string) => ['interventions', 'cohorts', patientId] as const,
  visitRecord: (appointmentId: string) => ['interventions', 'visit-record', appointmentId] as const,
  recentCodes: (kind: 'diagnosis' | 'procedure') => ['interventions', 'recent-codes', kind] as const,
};

export const interventionQueries = {
  patient: (patientId: string) =>
    queryOptions({
      queryKey: interventionKeys.patient(patientId),
      queryFn: () => api.get<Intervention[]>(`/api/patients/${patientId}/interventions`),
    }),
  one: (id: string) =>
    queryOptions({ queryKey: interventionKeys.one(id), queryFn: () => api.get<Intervention>(`/api/interventions/${id}`) }),
  formInfo: (patientId: string) =>
    queryOptions({
      queryKey: interventionKeys.formInfo(patientId),
      queryFn: () => api.get<InterventionFormInfo>(`/api/patients/interventionforminfo/${patientId}`),
      staleTime: 60_000,
    }),
  planned: (patientId: string) =>
    queryOptions({
      queryKey: interventionKeys.planned(patientId),
      queryFn: () => api.get<PlannedProcedure[]>(`/api/patients/${patientId}/procedures`),
    }),
  cohorts: (patientId: string) =>
    queryOptions({
      queryKey: interventionKeys.cohorts(patientId),
      queryFn: () => api.get<PatientStudyGroup[]>(`/api/patients/${patientId}/studygroups`),
    }),
  visitRecord: (appointmentId: string) =>
    queryOptions({
      queryKey: interventionKeys.visitRecord(appointmentId),
      queryFn: () => api.get<VisitRecord>(`/api/patientappointments/${appointmentId}/visitrecord`),
    }),
  recentCodes: (kind: 'diagnosis' | 'procedure') =>
    queryOptions({
      queryKey: interventionKeys.recentCodes(kind),
      queryFn: () => api.get<RecentCode[]>(`/api/appointmentcodes/recent?kind=${kind}`),
      staleTime: 60_000,
    }),
};

export const interventionApi = {
  create: (input: InterventionInput) => api.post<Intervention>('/api/interventions', input),
  update: (id: string, input: InterventionInput) => api.put<Intervention>(`/api/interventions/${id}`, input),
  remove: (id: string) => apiRequest<void>(`/api/interventions/${id}`, { method: 'DELETE' }),
  upsertPlanned: (input: PlannedProcedureUpsert) => api.post<PlannedProcedure>('/api/procedures/upsert', input),
  compliance: (id: string, input: ComplianceInput) => api.put<PlannedProcedure>(`/api/procedures/${id}/compliance`, input),
  setCohorts: (patientId: string, studyGroupIds: string[]) =>
    api.put<PatientStudyGroup[]>(`/api/patients/${patientId}/studygroups`, { studyGroupIds }),
  bulkCohort: (input: { patientIds: string[]; studyGroupId: string; action: 'add' | 'remove' }) =>
    api.post<{ changed: number }>('/api/patients/studygroups/bulk', input),
  saveVisitRecord: (appointmentId: string, input: VisitRecordInput) =>
    api.put<VisitRecord>(`/api/patientappointments/${appointmentId}/visitrecord`, input),
};

/** The clinic's active cohorts as select options (cohort pickers on the dashboard and the patient list). */
export function useStudyGroupOptions() {
  return useQuery({
    queryKey: ['managed-lists', 'studygroups', 'all'],
    queryFn: async () => {
      const page = await api.get<{ data: { id: string; name: string; isActive: boolean }[] }>(
        '/api/studygroups?pageSize=999&active=true',
      );
      return page.data.map((group) => ({ value: group.id, label: group.name }));
    },
    staleTime: 60_000,
  });
}

/** Pain-pump refills coming due (decision 0062); the card shows its own states, so the toast stays quiet. */
export const pumpRefillQueries = {
  due: (withinDays: number) =>
    queryOptions({
      queryKey: ['interventions', 'pump-refills-due', withinDays] as const,
      queryFn: () => api.get<PumpRefillsDue>(`/api/pumprefills/due?withinDays=${withinDays}`, { background: true }),
      meta: { silent: true },
    }),
};
