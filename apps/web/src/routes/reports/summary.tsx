import { DataSandbox } from '../../features/reports/sandbox/sandbox-page';

/** /reports/summary, the data sandbox (side menu: Reports; System Manager, Admin, Doctor). */
export function Component() {
  return <DataSandbox />;
}
