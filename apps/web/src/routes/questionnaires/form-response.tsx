import { useParams } from 'react-router';
import { FormResponseView } from '../../features/questionnaires/form-response-view';

/** /formresponse/result/:id (outcome forms) and /customformresponse/view/:id (custom forms): one page. */
export function Component() {
  const { id = '' } = useParams();
  return <FormResponseView key={id} id={id} />;
}
