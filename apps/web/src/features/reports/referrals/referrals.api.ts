import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ProviderBaselines,
  ProviderBaselinesFilter,
  ReferralPatients,
  ReferralPatientsFilter,
  ReferralTracker,
  ReferralTrackerFilter,
} from '@pathwell/contracts/reports-referrals';
import { api } from '../../../lib/api-client';

const TRACKER = '/api/reports/referraltracker';
const PROVIDER_REPORT = '/api/patientappointments/providerappointmentreport';

/** `run` tells two presses of Apply apart, so the same filter runs again when asked. */
const referralKeys = {
  tracker: (filter: ReferralTrackerFilter, run: number) => ['reports', 'referrals', 'tracker', filter, run] as const,
  patients: (filter: ReferralPatientsFilter) => ['reports', 'referrals', 'patients', filter] as const,
  baselines: (filter: ProviderBaselinesFilter, run: number) => ['reports', 'providerBaselines', filter, run] as const,
};

// Reports read live data and patient rows are audited: nothing refetches behind the person's back.
const once = { staleTime: Infinity, retry: false, meta: { silent: true } } as const;

export const referralQueries = {
  tracker: (filter: ReferralTrackerFilter, run: number) =>
    queryOptions({
      queryKey: referralKeys.tracker(filter, run),
      queryFn: () => api.post<ReferralTracker>(TRACKER, filter),
      ...once,
    }),
  patients: (filter: ReferralPatientsFilter) =>
    queryOptions({
      queryKey: referralKeys.patients(filter),
      queryFn: () => api.post<ReferralPatients>(`${TRACKER}/patients`, filter),
      placeholderData: keepPreviousData,
      ...once,
    }),
  baselines: (filter: ProviderBaselinesFilter, run: number) =>
    queryOptions({
      queryKey: referralKeys.baselines(filter, run),
      queryFn: () => api.post<ProviderBaselines>(PROVIDER_REPORT, filter),
      ...once,
    }),
};
