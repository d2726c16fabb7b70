import { SpotlightPage } from '../../features/reports/spotlight/spotlight-page';

/** /reports/patientsspotlight (side menu Reports → Patient Spotlight; System Manager, Admin, Doctor). */
export function Component() {
  return <SpotlightPage />;
}
