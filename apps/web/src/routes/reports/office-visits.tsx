import { OfficeVisits } from '../../features/reports/office-visits/office-visits';

/** /reports/officevisits (side menu Reports; System Manager, Admin, Doctor). */
export function Component() {
  return <OfficeVisits />;
}
