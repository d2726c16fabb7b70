import { ActionIcon, Anchor, Badge, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Organisation } from '@pathwell/contracts/instances';
import { DataTable, QueryState } from '../../components/data-table';
import { notify } from '../../lib/notify';
import { ConfirmAction } from '../../components/confirm-action';
import { clinicApi, clinicQueries, instanceKeys } from './instances.api';

export function AddClinicButton() {
  const { t } = useTranslation('instances');
  return (
    <Button component={Link} to="/clinics/clinicform" leftSection={<IconPlus size={16} aria-hidden />} data-testid="clinics-add">
      {t('clinics.add')}
    </Button>
  );
}

/** Clinic Information: parent organisations and the instances they group. */
export function ClinicList() {
  const { t } = useTranslation('instances');
  const queryClient = useQueryClient();
  const list = useQuery(clinicQueries.list());
  const [deleting, setDeleting] = useState<Organisation | null>(null);

  return (
    <QueryState query={list} errorTestId="clinics-error" retryLabel={t('retry')}>
      {(organisations) => (
        <Paper withBorder p="md" radius="lg">
          <DataTable
            rows={organisations}
            rowKey={(organisation) => organisation.id}
            rowTestId="clinics-row"
            testId="clinics-table"
            minWidth={600}
            emptyText={t('clinics.empty')}
            emptyTestId="clinics-empty"
            columns={[
              {
                key: 'name',
                header: t('fields.name'),
                cell: (organisation) =>
                  organisation.canManage ? (
                    <Anchor component={Link} to={`/clinics/clinicform/${organisation.id}`}>
                      {organisation.name}
                    </Anchor>
                  ) : (
                    organisation.name
                  ),
              },
              {
                key: 'instances',
                header: t('fields.instances'),
                cell: (organisation) =>
                  organisation.instances.length === 0 ? (
                    <Text c="dimmed">{t('none')}</Text>
                  ) : (
                    <Group gap={6}>
                      {organisation.instances.map((instance) => (
                        <Badge key={instance.id} variant="light" color={instance.isActive ? 'teal' : 'gray'} tt="none">
                          {instance.name}
                        </Badge>
                      ))}
                    </Group>
                  ),
              },
              {
                key: 'actions',
                headerLabel: t('actions'),
                cell: (organisation) =>
                  organisation.canManage ? (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label={t('edit')}>
                        <ActionIcon
                          component={Link}
                          to={`/clinics/clinicform/${organisation.id}`}
                          variant="subtle"
                          aria-label={t('editNamed', { name: organisation.name })}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={() => setDeleting(organisation)}
                          aria-label={t('deleteNamed', { name: organisation.name })}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  ) : (
                    <Text size="xs" c="dimmed" ta="right">
                      {t('clinics.readOnly')}
                    </Text>
                  ),
              },
            ]}
          />
          <ConfirmAction
            opened={deleting !== null}
            title={t('clinics.deleteTitle')}
            action={t('delete')}
            onClose={() => setDeleting(null)}
            onConfirm={async () => {
              if (!deleting) return;
              await clinicApi.remove(deleting.id);
              notify('success', t('clinics.deleted', { name: deleting.name }));
              setDeleting(null);
              await queryClient.invalidateQueries({ queryKey: instanceKeys.clinics });
              await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
            }}
          >
            {t('clinics.deleteConfirm', { name: deleting?.name ?? '' })}
          </ConfirmAction>
        </Paper>
      )}
    </QueryState>
  );
}
