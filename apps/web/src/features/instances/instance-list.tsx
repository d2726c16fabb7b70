import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconPower, IconSwitchHorizontal } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLINIC_SWITCH_RELOAD_MS } from '@pathwell/contracts/constants';
import type { Instance } from '@pathwell/contracts/instances';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { setClinicId } from '../../lib/session-storage';
import { ConfirmModal } from './confirm-modal';
import { instanceApi, instanceKeys, instanceQueries } from './instances.api';

export function ActiveBadge({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation('instances');
  return (
    <Badge variant="light" color={isActive ? 'teal' : 'gray'}>
      {isActive ? t('status.active') : t('status.inactive')}
    </Badge>
  );
}

/** System Managers work in another clinic by choosing it here (0002): stored, then the page reloads. */
function switchTo(instance: Instance) {
  setClinicId(instance.id);
  window.setTimeout(() => window.location.reload(), CLINIC_SWITCH_RELOAD_MS);
}

export function AddInstanceButton() {
  const { t } = useTranslation('instances');
  return (
    <Button
      component={Link}
      to="/instances/instanceform"
      leftSection={<IconPlus size={16} aria-hidden />}
      data-testid="instances-add"
    >
      {t('instances.add')}
    </Button>
  );
}

/** Instance Information: every instance for a System Manager, the Admin's own instance otherwise. */
export function InstanceList({ currentInstanceId, isSystemManager }: { currentInstanceId: string; isSystemManager: boolean }) {
  const { t } = useTranslation('instances');
  const queryClient = useQueryClient();
  const list = useQuery(instanceQueries.list());
  const [switchingOff, setSwitchingOff] = useState<Instance | null>(null);

  if (list.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="instances-error">{errorText(list.error)}</ErrorAlert>
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
        <Text c="dimmed" ta="center" py="lg" data-testid="instances-empty">
          {t('instances.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="instances-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th>{t('fields.organisation')}</Table.Th>
                <Table.Th>{t('fields.timeZone')}</Table.Th>
                <Table.Th>{t('fields.users')}</Table.Th>
                <Table.Th>{t('fields.status')}</Table.Th>
                <Table.Th aria-label={t('actions')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((instance) => (
                <Table.Tr key={instance.id} data-testid="instances-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/instances/instanceform/${instance.id}`}>
                      {instance.name}
                    </Anchor>
                    {instance.id === currentInstanceId ? (
                      <Badge ml="xs" variant="outline" size="sm">
                        {t('instances.current')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{instance.organisationName ?? <Text c="dimmed">{t('none')}</Text>}</Table.Td>
                  <Table.Td>{instance.timeZoneId ?? '—'}</Table.Td>
                  <Table.Td>{instance.userCount}</Table.Td>
                  <Table.Td>
                    <ActiveBadge isActive={instance.isActive} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {isSystemManager && instance.isActive && instance.id !== currentInstanceId ? (
                        <Tooltip label={t('instances.switch')}>
                          <ActionIcon
                            variant="subtle"
                            onClick={() => switchTo(instance)}
                            aria-label={t('instances.switchTo', { name: instance.name })}
                          >
                            <IconSwitchHorizontal size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                      <Tooltip label={t('edit')}>
                        <ActionIcon
                          component={Link}
                          to={`/instances/instanceform/${instance.id}`}
                          variant="subtle"
                          aria-label={t('editNamed', { name: instance.name })}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      {instance.canManage && instance.isActive ? (
                        <Tooltip label={t('instances.switchOff')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            onClick={() => setSwitchingOff(instance)}
                            aria-label={t('instances.switchOffNamed', { name: instance.name })}
                          >
                            <IconPower size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmModal
        opened={switchingOff !== null}
        title={t('instances.switchOffTitle')}
        text={t('instances.switchOffConfirm', { name: switchingOff?.name ?? '' })}
        action={t('instances.switchOff')}
        onClose={() => setSwitchingOff(null)}
        onConfirm={async () => {
          if (!switchingOff) return;
          await instanceApi.remove(switchingOff.id);
          notify('success', t('instances.switchedOff', { name: switchingOff.name }));
          setSwitchingOff(null);
          await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
        }}
      />
    </Paper>
  );
}
