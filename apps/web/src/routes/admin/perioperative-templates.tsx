import { PerioperativeTemplatesPage } from '../../features/managed-lists/perioperative-templates';

export function Component() {
  return <PerioperativeTemplatesPage />;
}
