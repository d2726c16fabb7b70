import { Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { allergyQueries } from '../intake/intake-record.api';

/** The patient's recorded allergies (issue #24 §4): from the intake once staff reconcile it. */
export function AllergiesList({ patientId }: { patientId: string }) {
  const { t } = useTranslation('medicines');
  const allergies = useQuery(allergyQueries.list(patientId));
  return (
    <Stack gap={4} data-testid="patient-allergies">
      <Text fw={600} size="sm">
        {t('allergies.title')}
      </Text>
      {allergies.isPending ? <Loader size="xs" aria-label={t('allergies.loading')} /> : null}
      {/* Plain text, not a second alert: the card's own alert speaks for the medicines. */}
      {allergies.isError ? (
        <Text size="sm" c="red.8">
          {t('allergies.loadFailed')}
        </Text>
      ) : null}
      {allergies.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('allergies.none')}
        </Text>
      ) : null}
      {allergies.data && allergies.data.length > 0 ? (
        <Group gap="xs" wrap="wrap" role="list">
          {allergies.data.map((allergy) => (
            <Text key={allergy.id} size="sm" role="listitem" c="red.8" fw={600}>
              {allergy.name}
              {allergy.reaction ? <Text span size="sm" c="dimmed" fw={400}>{` (${allergy.reaction})`}</Text> : null}
            </Text>
          ))}
        </Group>
      ) : null}
    </Stack>
  );
}
