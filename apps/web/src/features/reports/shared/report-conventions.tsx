import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * How every report counts days and signs a change (decision 0060), stated on each report page in the
 * same words: days are the clinic's calendar days, and an improvement is positive when the patient is
 * better whatever the instrument's direction. `improvement` is off on reports that show no score change.
 */
export function ReportConventions({ improvement = true }: { improvement?: boolean }) {
  const { t } = useTranslation('reportsShared');
  return (
    <Paper withBorder p="sm" mb="md" data-testid="report-conventions">
      <Text size="sm" fw={600}>
        {t('conventions.title')}
      </Text>
      <Text size="sm">{t('conventions.days')}</Text>
      {improvement ? <Text size="sm">{t('conventions.improvement')}</Text> : null}
    </Paper>
  );
}
