import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AppointmentDashboard } from '@pathwell/contracts/intake';
import { api } from '../../lib/api-client';

/** The body of `POST /api/patients/appointmentdashboardinfo`: a clinic day (MM/DD/YYYY), one provider, one room. */
export type AppointmentDashboardFilter = { date: string; doctorId?: string; roomId?: string };

/** Step progress changes while patients fill in their intake: the day is read again this often. */
const APPOINTMENT_DASHBOARD_REFRESH_MS = 30_000;

export const appointmentDashboardKeys = { all: ['appointment-dashboard'] as const };

export const appointmentDashboardQueries = {
  day: (filter: AppointmentDashboardFilter) =>
    queryOptions({
      queryKey: [...appointmentDashboardKeys.all, 'day', filter],
      // Background: the page shows its own loader, and the 30-second refresh must not raise the shell's overlay.
      queryFn: () => api.post<AppointmentDashboard>('/api/patients/appointmentdashboardinfo', filter, { background: true }),
      placeholderData: keepPreviousData,
      refetchInterval: APPOINTMENT_DASHBOARD_REFRESH_MS,
      // The page shows the failure itself; a failing 30-second refresh must not toast every time.
      meta: { silent: true },
    }),
};
