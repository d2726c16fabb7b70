import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientAllergy } from '@pathwell/contracts/intake-record';
import { ConfirmAction } from '../../components/confirm-action';
import { notify } from '../../lib/notify';
import { allergyApi, allergyQueries } from '../intake/intake-record.api';

/**
 * The patient's recorded allergies (issue #24 §4): from the intake once staff reconcile it. Staff take one
 * off the record (recorded in error, or no longer true) after confirming; the server keeps it for history.
 */
export function AllergiesList({ patientId }: { patientId: string }) {
  const { t } = useTranslation('medicines');
  const allergies = useQuery(allergyQueries.list(patientId));
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<PatientAllergy | null>(null);
  const remove = async (allergy: PatientAllergy) => {
    await allergyApi.remove(patientId, allergy.id);
    notify('success', t('allergies.removed', { name: allergy.name }));
    await queryClient.invalidateQueries({ queryKey: allergyQueries.list(patientId).queryKey });
  };
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
        <Stack gap={2} role="list">
          {allergies.data.map((allergy) => (
            <Group key={allergy.id} role="listitem" gap="xs" wrap="nowrap" justify="space-between" data-testid="allergy-row">
              <Text size="sm" c="red.8" fw={600}>
                {allergy.name}
                {allergy.reaction ? <Text span size="sm" c="dimmed" fw={400}>{` (${allergy.reaction})`}</Text> : null}
              </Text>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={t('allergies.removeOf', { name: allergy.name })}
                onClick={() => setRemoving(allergy)}
              >
                {t('allergies.remove')}
              </Button>
            </Group>
          ))}
        </Stack>
      ) : null}
      <ConfirmAction
        opened={removing !== null}
        title={t('allergies.confirmTitle', { name: removing?.name ?? '' })}
        action={t('allergies.confirmAction')}
        onConfirm={() => (removing ? remove(removing) : Promise.resolve())}
        onClose={() => setRemoving(null)}
        testId="confirm-remove-allergy"
      >
        {t('allergies.confirmText', { name: removing?.name ?? '' })}
      </ConfirmAction>
    </Stack>
  );
}
