import { useParams } from 'react-router';
import { useSession } from '../../app/session-context';
import { PathwayTimeline } from '../../features/pathways/pathway-timeline';

/** /pathwaysresponse/:id — the id is the enrolment's. */
export function Component() {
  const { id = '' } = useParams();
  const timeZone = useSession().instance.timeZoneId;
  return <PathwayTimeline key={id} enrolmentId={id} timeZone={timeZone} />;
}
