import { useParams } from 'react-router';
import { CampaignEdit } from '../../features/outreach/campaigns/campaign-form';

/** /editcampaign/:id — a draft campaign. */
export function Component() {
  const { id = '' } = useParams();
  return <CampaignEdit key={id} campaignId={id} />;
}
