import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';

const colors: Record<AppointmentStatusCode, string> = { 1: 'orange', 2: 'blue', 3: 'green', 4: 'gray' };

/** One status badge for every screen (same colour for Completed everywhere). `compact`: sentence case and small, for narrow cells (the staff schedule on a phone). */
export function AppointmentStatusBadge({ status, compact = false }: { status: AppointmentStatusCode; compact?: boolean }) {
  const { t } = useTranslation('appointments');
  return (
    <Badge
      color={colors[status]}
      variant="light"
      size={compact ? 'sm' : 'md'}
      tt={compact ? 'none' : undefined}
      // A status is short; never cut it to "CHECKING…" in a narrow table cell.
      styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } }}
      data-testid="appointment-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
