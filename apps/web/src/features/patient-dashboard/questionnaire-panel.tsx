import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientDashboard } from '@pathwell/contracts/patient-dashboard';
import { formatClinicDate } from '../../lib/dates';

/** Questionnaire scores; the questionnaire issue (#5) fills the list, until then it is empty. */
export function QuestionnairePanel({ panel, offsetHours }: { panel: PatientDashboard['questionnaires']; offsetHours: number }) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="questionnaire-panel">
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t('questionnaires.title')}
        </Title>
        {panel.results.length === 0 ? (
          <Text c="dimmed">{t('questionnaires.empty')}</Text>
        ) : (
          <Table>
            <Table.Tbody>
              {panel.results.map((result) => (
                <Table.Tr key={result.id}>
                  <Table.Td>{result.formName}</Table.Td>
                  <Table.Td>{formatClinicDate(result.completedAt, offsetHours)}</Table.Td>
                  <Table.Td>
                    {result.score === null ? '—' : result.maxScore === null ? result.score : `${result.score}/${result.maxScore}`}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
