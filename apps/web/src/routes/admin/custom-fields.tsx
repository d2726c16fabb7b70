import { Navigate, useParams } from 'react-router';
import { customFieldKinds } from '@pathwell/contracts/enumerations';
import { CustomFieldsPage, isCustomFieldKind } from '../../features/managed-lists/custom-fields';

/** `/admin/customfields` opens the first kind; `/admin/customfields/{kind}` one kind's values. */
export function Component() {
  const kind = useParams().kind?.toLowerCase();
  if (!isCustomFieldKind(kind)) return <Navigate to={`/admin/customfields/${customFieldKinds[0]}`} replace />;
  return <CustomFieldsPage kind={kind} />;
}
