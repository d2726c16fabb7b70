import { NotificationPage } from '../../features/notifications/notification-page';

export function Component() {
  return <NotificationPage />;
}
