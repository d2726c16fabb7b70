import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const colors: Record<number, string> = { 1: 'orange', 2: 'blue', 3: 'teal', 4: 'gray' };

/** Appointment status of section 3 (Checking_In 1, Upcoming 2, Completed 3, No_Show 4) in the user's language. */
export function AppointmentStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('patientDashboard');
  return (
    <Badge color={colors[status] ?? 'gray'} variant="light" radius="sm">
      {t(`statuses.${status}`)}
    </Badge>
  );
}
