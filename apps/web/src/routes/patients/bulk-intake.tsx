import { BulkIntakeNotification } from '../../features/intake/bulk-intake';

export function Component() {
  return <BulkIntakeNotification />;
}
