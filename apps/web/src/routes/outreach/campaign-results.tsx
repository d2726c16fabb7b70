import { CampaignResults } from '../../features/outreach/campaigns/campaign-results';

/** /patientcampaigns/results (System Managers, Admins and Doctors). */
export function Component() {
  return <CampaignResults />;
}
