import { useParams } from 'react-router';
import { CampaignOverview } from '../../features/outreach/campaigns/campaign-overview';

/** /patientcampaigns/:id — a campaign's overview (a draft's approval happens here). */
export function Component() {
  const { id = '' } = useParams();
  return <CampaignOverview key={id} campaignId={id} />;
}
