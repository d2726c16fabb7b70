import { CampaignForm } from '../../features/outreach/campaigns/campaign-form';

/** /patientcampaigns/newcampaign */
export function Component() {
  return <CampaignForm />;
}
