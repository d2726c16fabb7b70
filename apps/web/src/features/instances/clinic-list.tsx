import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Organisation } from '@pathwell/contracts/instances';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { ConfirmModal } from './confirm-modal';
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

  if (list.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="clinics-error">{errorText(list.error)}</ErrorAlert>
        <Button variant="light" onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  }
  if (!list.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  return (
    <Paper withBorder p="md" radius="lg">
      {list.data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="clinics-empty">
          {t('clinics.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="clinics-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th>{t('fields.instances')}</Table.Th>
                <Table.Th aria-label={t('actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((organisation) => (
                <Table.Tr key={organisation.id} data-testid="clinics-row">
                  <Table.Td>
                    {organisation.canManage ? (
                      <Anchor component={Link} to={`/clinics/clinicform/${organisation.id}`}>
                        {organisation.name}
                      </Anchor>
                    ) : (
                      organisation.name
                    )}
                  </Table.Td>
                  <Table.Td>
                    {organisation.instances.length === 0 ? (
                      <Text c="dimmed">{t('none')}</Text>
                    ) : (
                      <Group gap={6}>
                        {organisation.instances.map((instance) => (
                          <Badge key={instance.id} variant="light" color={instance.isActive ? 'teal' : 'gray'} tt="none">
                            {instance.name}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {organisation.canManage ? (
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
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={t('clinics.deleteTitle')}
        text={t('clinics.deleteConfirm', { name: deleting?.name ?? '' })}
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
      />
    </Paper>
  );
}
