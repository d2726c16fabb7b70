import { queryOptions } from '@tanstack/react-query';
import type {
  ProcedureNote,
  ProcedureNoteList,
  ProcedureNoteTemplate,
  ProcedureNoteTemplateInput,
} from '@pathwell/contracts/procedure-notes';
import { api, apiFetch, apiRequest } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';

const TEMPLATES = '/api/procedurenotetemplates';

export const procedureNoteKeys = {
  templates: ['procedureNoteTemplates'] as const,
  note: (id: string) => ['procedureNotes', 'note', id] as const,
  patient: (patientId: string) => ['procedureNotes', 'patient', patientId] as const,
  todo: ['procedureNotes', 'todo'] as const,
  all: ['procedureNotes'] as const,
};

export const procedureNoteQueries = {
  templates: () =>
    queryOptions({ queryKey: procedureNoteKeys.templates, queryFn: () => api.get<ProcedureNoteTemplate[]>(TEMPLATES) }),
  patient: (patientId: string) =>
    queryOptions({
      queryKey: procedureNoteKeys.patient(patientId),
      queryFn: () => api.get<ProcedureNoteList>(`/api/patients/${patientId}/procedurenotes`),
    }),
  todo: () =>
    queryOptions({ queryKey: procedureNoteKeys.todo, queryFn: () => api.get<ProcedureNoteList>('/api/procedurenotes/todo') }),
  note: (id: string) =>
    queryOptions({ queryKey: procedureNoteKeys.note(id), queryFn: () => api.get<ProcedureNote>(`/api/procedurenotes/${id}`) }),
};

export const procedureNoteApi = {
  createTemplate: (input: ProcedureNoteTemplateInput) => api.post<ProcedureNoteTemplate>(TEMPLATES, input),
  updateTemplate: (id: string, input: ProcedureNoteTemplateInput) => api.put<ProcedureNoteTemplate>(`${TEMPLATES}/${id}`, input),
  removeTemplate: (id: string) => apiRequest<void>(`${TEMPLATES}/${id}`, { method: 'DELETE' }),
  /** The intervention's latest note version, or a new draft filled from the template. */
  open: (interventionId: string) => api.post<ProcedureNote>('/api/procedurenotes', { interventionId }),
  get: (id: string) => api.get<ProcedureNote>(`/api/procedurenotes/${id}`),
  save: (id: string, body: string) => api.put<ProcedureNote>(`/api/procedurenotes/${id}`, { body }),
  sign: (id: string) => api.post<ProcedureNote>(`/api/procedurenotes/${id}/sign`),
  amend: (id: string) => api.post<ProcedureNote>(`/api/procedurenotes/${id}/amend`),
};

export async function openProcedureNotePdf(id: string) {
  try {
    const blob = await (await apiFetch(`/api/procedurenotes/${id}/pdf`, { accept: 'application/pdf' })).blob();
    window.open(URL.createObjectURL(blob), '_blank', 'noopener');
  } catch (failure) {
    notify('error', errorText(failure));
  }
}

/** The page of an intervention's note (specification section 2's path; `type` is the intervention kind). */
export const procedureNotePath = (note: { interventionId: string; patientId: string; providerId: string | null; kind: string }) =>
  `/patients/procedurenoteform/${note.interventionId}/${note.patientId}/${note.providerId ?? 'none'}/${note.kind}`;
