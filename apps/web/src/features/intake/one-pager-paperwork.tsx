import { Badge, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import { api } from '../../lib/api-client';
import { useFieldText } from './intake-changes';

/**
 * The paperwork's answers on the one-pager (issue #24 §4): insurance, emergency contact, pharmacy and the
 * rest as the patient gave them, with what is on file where it differs. Accepting them is the dashboard's.
 */
export function OnePagerPaperwork({ patientId, linkId }: { patientId: string; linkId: string }) {
  const { t } = useTranslation('intakeStaff');
  const text = useFieldText();
  const intakes = useQuery({
    queryKey: ['intake', 'patient', patientId],
    queryFn: () => api.get<StaffIntakeDetail[]>(`/api/patients/${patientId}/intake`, { background: true }),
    meta: { silent: true },
  });
  const changes = intakes.data?.find((intake) => intake.linkId === linkId)?.changes ?? [];
  if (changes.length === 0) return null;
  const differing = changes.filter((change) => change.differs).length;
  return (
    <section
      className="one-pager-section one-pager-section-wide"
      aria-label={t('record.title')}
      data-testid="one-pager-paperwork"
    >
      <Title order={2} size="h5" mb={6}>
        {t('record.title')}
        {differing > 0 ? (
          <Badge ml="xs" size="sm" color="dark" variant="outline">
            {t('record.differ', { count: differing })}
          </Badge>
        ) : null}
      </Title>
      <Table className="one-pager-table" verticalSpacing={2} horizontalSpacing={6}>
        <Table.Tbody>
          {changes.map((change) => (
            <Table.Tr key={change.field}>
              <Table.Td fw={600}>{t(`record.fields.${change.field}`)}</Table.Td>
              <Table.Td>
                <Text size="sm">{text(change.field, change.answer)}</Text>
                {change.differs ? (
                  <Text size="xs" c="dimmed">
                    {t('record.onFile')}: {text(change.field, change.onFile)}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}
