import type { StaffNotification } from '@pathwell/contracts/messaging';
import type { TFunction } from 'i18next';
import { formatClinicDateTime } from '../../lib/dates';

/** The specification's text for completed forms: '{timestamp}: {first} {last} has submitted all forms and are ready for the doctor.' */
export function notificationText(t: TFunction<'notifications'>, notification: StaffNotification, timeZone: string): string {
  return t(notification.kind, {
    timestamp: formatClinicDateTime(notification.createdAt, timeZone),
    first: notification.patientFirstName,
    last: notification.patientLastName,
  });
}

const patientDashboardPath = (patientId: string) => `/patients/patientdashboard/${patientId}`;

/** Where a notification opens: a critical finding its response (with the Acknowledge action), the rest the patient's dashboard. */
export const notificationPath = (notification: StaffNotification) =>
  notification.kind === 'criticalFinding' && notification.responseId
    ? `/formresponse/result/${notification.responseId}`
    : patientDashboardPath(notification.patientId);
