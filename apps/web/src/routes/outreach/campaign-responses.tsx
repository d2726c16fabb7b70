import { useParams } from 'react-router';
import { CampaignResponses } from '../../features/outreach/campaigns/campaign-responses';

/** /campaignResponse/:id — the spec's spelling. */
export function Component() {
  const { id = '' } = useParams();
  return <CampaignResponses key={id} campaignId={id} />;
}
