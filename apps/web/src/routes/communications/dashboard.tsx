import { CommunicationDashboard } from '../../features/communications/communication-dashboard';

export function Component() {
  return <CommunicationDashboard />;
}
