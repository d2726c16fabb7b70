import { ProviderBaselines } from '../../features/reports/provider-baselines/provider-baselines';

/** /reports/providerbaselines: the Provider Appointment Dashboard (only with enableProviderAppointmentDashboard). */
export function Component() {
  return <ProviderBaselines />;
}
