import { useParams } from 'react-router';
import { useSession } from '../../app/session-context';
import { ProcedureNoteEditor } from '../../features/procedure-notes/procedure-note-editor';

/** /patients/procedurenoteform/:id/:patientid/:providerId/:type: `id` is the intervention (decision 0040). */
export function Component() {
  const { id = '', patientid = '' } = useParams();
  const timeZone = useSession().instance.timeZoneId;
  return <ProcedureNoteEditor key={id} interventionId={id} patientId={patientid} timeZone={timeZone} />;
}
