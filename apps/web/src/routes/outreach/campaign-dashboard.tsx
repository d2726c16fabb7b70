import { CampaignDashboard } from '../../features/outreach/campaigns/campaign-dashboard';

/** /patientcampaigns/dashboard (System Managers and Admins; the home of campaign-only clinics). */
export function Component() {
  return <CampaignDashboard />;
}
