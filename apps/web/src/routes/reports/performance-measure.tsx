import { PerformanceMeasures } from '../../features/reports/performance/performance-page';

/** /reports/patientsperformancemeasure (side menu Reports → Performance Measure; System Manager, Admin, Doctor). */
export function Component() {
  return <PerformanceMeasures />;
}
