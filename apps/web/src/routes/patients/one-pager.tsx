import { useParams } from 'react-router';
import { OnePagerView } from '../../features/intake/one-pager';

/** /patients/:patientId/appointments/:appointmentId/one-pager: the doctor's printable summary of a visit. */
export function Component() {
  const { patientId = '', appointmentId = '' } = useParams();
  return <OnePagerView patientId={patientId} appointmentId={appointmentId} />;
}
