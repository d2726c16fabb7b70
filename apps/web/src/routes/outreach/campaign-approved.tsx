import { useParams } from 'react-router';
import { CampaignApproved } from '../../features/outreach/campaigns/campaign-approved';

/** /approvedcampaign/:id — an approved campaign's progress and recipients. */
export function Component() {
  const { id = '' } = useParams();
  return <CampaignApproved key={id} campaignId={id} />;
}
