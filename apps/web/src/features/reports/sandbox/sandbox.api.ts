import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { settingFlagSchema } from '@pathwell/contracts/instance-settings';
import { findManagedList, type ManagedItem } from '@pathwell/contracts/managed-lists';
import type {
  SummaryExportRequest,
  SummaryFilter,
  SummaryPatients,
  SummaryPatientsRequest,
  SummaryReport,
} from '@pathwell/contracts/reports-summary';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { useStudyGroupOptions } from '../../interventions/interventions.api';
import { managedListQueries, perioperativeQueries } from '../../managed-lists/managed-lists.api';
import { pathwayQueries } from '../../pathways/pathways.api';

const SUMMARY = '/api/reports/summary';

export type Option = { value: string; label: string };

const sandboxKeys = {
  all: ['reports', 'summary'] as const,
  /** `run` tells two presses of Apply apart, so the same filter runs again when asked. */
  report: (filter: SummaryFilter, run: number) => ['reports', 'summary', 'report', filter, run] as const,
  patients: (request: SummaryPatientsRequest) => ['reports', 'summary', 'patients', request] as const,
  bmiFlag: () => ['instance-settings', 'flags', 'bmifilter'] as const,
};

// Reports read live data and each patient-level read is audited: no refetching behind the person's back.
export const sandboxQueries = {
  report: (filter: SummaryFilter, run: number) =>
    queryOptions({
      queryKey: sandboxKeys.report(filter, run),
      queryFn: () => api.post<SummaryReport>(SUMMARY, filter),
      staleTime: Infinity,
      retry: false,
      // The page shows its own error (with field errors next to the filters).
      meta: { silent: true },
    }),
  patients: (request: SummaryPatientsRequest) =>
    queryOptions({
      queryKey: sandboxKeys.patients(request),
      queryFn: () => api.post<SummaryPatients>(`${SUMMARY}/patients`, request),
      staleTime: Infinity,
      retry: false,
      placeholderData: keepPreviousData,
      meta: { silent: true },
    }),
  /** Section 9: the BMI filter shows only when the clinic turns `showBmiFilterOnSandbox` on. */
  bmiFlag: () =>
    queryOptions({
      queryKey: sandboxKeys.bmiFlag(),
      queryFn: () => api.get<z.infer<typeof settingFlagSchema>>('/api/instancesettings/flags/bmifilter', { background: true }),
      select: (flag) => flag.enabled,
      staleTime: 5 * 60_000,
      meta: { silent: true },
    }),
};

export const sandboxApi = {
  export: (request: SummaryExportRequest) =>
    downloadFile(`${SUMMARY}/export`, request, `data-sandbox-${request.level}.${request.format}`),
};

function useManagedOptions(listType: string, language: string) {
  const list = findManagedList(listType)!;
  return useQuery({
    ...managedListQueries.options(list),
    select: (page) =>
      page.data.map((item: ManagedItem) => {
        const nameEs = item.attributes.nameEs;
        return { value: item.id, label: language === 'es' && typeof nameEs === 'string' && nameEs ? nameEs : item.name };
      }),
  });
}

/**
 * Everything the filter panel offers from the clinic's own lists: interventional items (the pathway
 * options call), cohorts, body locations, the patient custom fields and perioperative templates.
 */
export function useSandboxOptions() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const procedures = useQuery({
    ...pathwayQueries.options(),
    select: (options): Option[] => options.procedures.map((item) => ({ value: item.id, label: item.name })),
  });
  const studyGroups = useStudyGroupOptions();
  const bodyLocations = useManagedOptions('bodylocations', language);
  const genders = useManagedOptions('customfield:gender', language);
  const occupations = useManagedOptions('customfield:occupationstatus', language);
  const maritalStatus = useManagedOptions('customfield:maritalstatus', language);
  const payorStatus = useManagedOptions('customfield:payorstatus', language);
  const templates = useQuery({
    ...perioperativeQueries.page({ pageNumber: 0, pageSize: 999 }),
    select: (page): Option[] => page.data.map((template) => ({ value: template.id, label: template.name })),
  });
  const none: Option[] = [];
  return {
    procedures: procedures.data ?? none,
    studyGroups: studyGroups.data ?? none,
    bodyLocations: bodyLocations.data ?? none,
    genders: genders.data ?? none,
    occupations: occupations.data ?? none,
    maritalStatus: maritalStatus.data ?? none,
    payorStatus: payorStatus.data ?? none,
    templates: templates.data ?? none,
  };
}
