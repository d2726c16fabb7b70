import { useParams } from 'react-router';
import { HotlistCallPage } from '../../features/outreach/hotlists/hotlist-call';

/** /patienthotlist/:id: one hot list's call screen and its patients. */
export function Component() {
  const { id = '' } = useParams();
  return <HotlistCallPage key={id} hotlistId={id} />;
}
