import { NewHotlist } from '../../features/outreach/hotlists/new-hotlist';

/** /patienthotlist/newcampaign (the specification's path): a new hot list, System Managers and Admins. */
export function Component() {
  return <NewHotlist />;
}
