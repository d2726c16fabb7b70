import { AppointmentDashboardView } from '../../features/intake/appointment-dashboard';

/** /patients/appointmentdashboard: the day's appointments with each patient's intake progress. */
export function Component() {
  return <AppointmentDashboardView />;
}
