import { Button, Center, Group, Loader, Modal, MultiSelect, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { interventionApi, interventionKeys, interventionQueries, useStudyGroupOptions } from './interventions.api';

/** Sets one patient's cohorts ("patient study groups update"), from the dashboard and the patient list. */
export function CohortsModal({
  patientId,
  patientName,
  onClose,
}: {
  patientId: string;
  patientName?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('interventions');
  const current = useQuery(interventionQueries.cohorts(patientId));
  return (
    <Modal opened onClose={onClose} title={patientName ? `${t('cohorts.editTitle')}: ${patientName}` : t('cohorts.editTitle')}>
      {current.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
      {current.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('common:loading')} />
        </Center>
      ) : null}
      {current.data ? (
        <CohortsForm patientId={patientId} current={current.data.map((group) => group.id)} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function CohortsForm({ patientId, current, onClose }: { patientId: string; current: string[]; onClose: () => void }) {
  const { t } = useTranslation('interventions');
  const queryClient = useQueryClient();
  const options = useStudyGroupOptions();
  const [selected, setSelected] = useState(current);
  const save = useMutation({
    mutationFn: () => interventionApi.setCohorts(patientId, selected),
    onSuccess: (saved) => {
      queryClient.setQueryData(interventionKeys.cohorts(patientId), saved);
      notify('success', t('cohorts.saved'));
      onClose();
    },
  });
  return (
    <Stack gap="sm">
      <MultiSelect
        label={t('cohorts.label')}
        data={options.data ?? []}
        value={selected}
        onChange={setSelected}
        searchable
        nothingFoundMessage={t('cohorts.noneInList')}
        comboboxProps={{ withinPortal: true }}
      />
      {save.isError ? <ErrorAlert>{errorText(save.error)}</ErrorAlert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common:cancel')}
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          {t('cohorts.save')}
        </Button>
      </Group>
    </Stack>
  );
}
