import { queryOptions } from '@tanstack/react-query';
import type {
  EnrolPathway,
  Pathway,
  PathwayEnrolment,
  PathwayInput,
  PathwayRosterPage,
  PathwaySummary,
  PatientPathway,
} from '@pathwell/contracts/pathways';
import { api, apiRequest } from '../../lib/api-client';

type PathwayOptions = {
  procedures: { id: string; name: string }[];
  studyGroups: { id: string; name: string }[];
  customForms: { id: string; title: string }[];
};

const id = (value: string) => encodeURIComponent(value);

export const ROSTER_PAGE_SIZE = 20;

export const pathwayKeys = {
  all: ['pathways'] as const,
  list: () => ['pathways', 'list'] as const,
  one: (pathwayId: string) => ['pathways', 'one', pathwayId] as const,
  options: () => ['pathways', 'options'] as const,
  enrolment: (enrolmentId: string) => ['pathways', 'enrolment', enrolmentId] as const,
  patient: (patientId: string) => ['pathways', 'patient', patientId] as const,
  roster: (pathwayId: string, pageNumber: number) => ['pathways', 'roster', pathwayId, pageNumber] as const,
};

export const pathwayQueries = {
  list: () => queryOptions({ queryKey: pathwayKeys.list(), queryFn: () => api.get<PathwaySummary[]>('/api/pathways') }),
  one: (pathwayId: string) =>
    queryOptions({ queryKey: pathwayKeys.one(pathwayId), queryFn: () => api.get<Pathway>(`/api/pathways/${id(pathwayId)}`) }),
  options: () =>
    queryOptions({ queryKey: pathwayKeys.options(), queryFn: () => api.get<PathwayOptions>('/api/pathways/options') }),
  enrolment: (enrolmentId: string) =>
    queryOptions({
      queryKey: pathwayKeys.enrolment(enrolmentId),
      queryFn: () => api.get<PathwayEnrolment>(`/api/pathways/enrolments/${id(enrolmentId)}`),
      meta: { silent: true },
    }),
  /** The dashboard card shows its own loading and error states, so the global toast stays quiet. */
  patient: (patientId: string) =>
    queryOptions({
      queryKey: pathwayKeys.patient(patientId),
      queryFn: () => api.get<PatientPathway[]>(`/api/patients/${id(patientId)}/pathways`, { background: true }),
      meta: { silent: true },
    }),
  /** The roster shows its own loading and error states. */
  roster: (pathwayId: string, pageNumber: number) =>
    queryOptions({
      queryKey: pathwayKeys.roster(pathwayId, pageNumber),
      queryFn: () =>
        api.get<PathwayRosterPage>(`/api/pathways/${id(pathwayId)}/roster?pageSize=${ROSTER_PAGE_SIZE}&pageNumber=${pageNumber}`),
      meta: { silent: true },
    }),
};

export const pathwayApi = {
  create: (input: PathwayInput) => api.post<Pathway>('/api/pathways', input),
  update: (pathwayId: string, input: PathwayInput) => api.put<Pathway>(`/api/pathways/${id(pathwayId)}`, input),
  remove: (pathwayId: string) => apiRequest<void>(`/api/pathways/${id(pathwayId)}`, { method: 'DELETE' }),
  enrol: (pathwayId: string, input: EnrolPathway) => api.post<PathwayEnrolment>(`/api/pathways/${id(pathwayId)}/enrol`, input),
  stop: (enrolmentId: string) => api.post<PathwayEnrolment>(`/api/pathways/enrolments/${id(enrolmentId)}/stop`),
  taskDone: (runId: string) => api.post<PathwayEnrolment>(`/api/pathways/steprun/${id(runId)}/done`),
};
