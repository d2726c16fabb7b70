import { HotlistDashboard } from '../../features/outreach/hotlists/hotlist-dashboard';

/** /patienthotlist/dashboard (issue #15 §4): System Manager, Admin and Staff. */
export function Component() {
  return <HotlistDashboard />;
}
