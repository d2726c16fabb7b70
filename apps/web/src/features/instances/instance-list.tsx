import { ActionIcon, Anchor, Badge, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconPower, IconSwitchHorizontal } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLINIC_SWITCH_RELOAD_MS } from '@pathwell/contracts/constants';
import type { Instance } from '@pathwell/contracts/instances';
import { DataTable, QueryState } from '../../components/data-table';
import { notify } from '../../lib/notify';
import { setClinicId } from '../../lib/session-storage';
import { ConfirmAction } from '../../components/confirm-action';
import { instanceApi, instanceKeys, instanceQueries } from './instances.api';

function ActiveBadge({ isActive }: { isActive: boolean }) {
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

  return (
    <QueryState query={list} errorTestId="instances-error" retryLabel={t('retry')}>
      {(instances) => (
        <Paper withBorder p="md" radius="lg">
          <DataTable
            rows={instances}
            rowKey={(instance) => instance.id}
            rowTestId="instances-row"
            testId="instances-table"
            minWidth={720}
            emptyText={t('instances.empty')}
            emptyTestId="instances-empty"
            columns={[
              {
                key: 'name',
                header: t('fields.name'),
                cell: (instance) => (
                  <>
                    <Anchor component={Link} to={`/instances/instanceform/${instance.id}`}>
                      {instance.name}
                    </Anchor>
                    {instance.id === currentInstanceId ? (
                      <Badge ml="xs" variant="outline" size="sm">
                        {t('instances.current')}
                      </Badge>
                    ) : null}
                  </>
                ),
              },
              {
                key: 'organisation',
                header: t('fields.organisation'),
                cell: (instance) => instance.organisationName ?? <Text c="dimmed">{t('none')}</Text>,
              },
              { key: 'timeZone', header: t('fields.timeZone'), cell: (instance) => instance.timeZoneId ?? '—' },
              { key: 'users', header: t('fields.users'), cell: (instance) => instance.userCount },
              { key: 'status', header: t('fields.status'), cell: (instance) => <ActiveBadge isActive={instance.isActive} /> },
              {
                key: 'actions',
                headerLabel: t('actions'),
                cell: (instance) => (
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
                ),
              },
            ]}
          />
          <ConfirmAction
            opened={switchingOff !== null}
            title={t('instances.switchOffTitle')}
            action={t('instances.switchOff')}
            onClose={() => setSwitchingOff(null)}
            onConfirm={async () => {
              if (!switchingOff) return;
              await instanceApi.remove(switchingOff.id);
              notify('success', t('instances.switchedOff', { name: switchingOff.name }));
              setSwitchingOff(null);
              await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
            }}
          >
            {t('instances.switchOffConfirm', { name: switchingOff?.name ?? '' })}
          </ConfirmAction>
        </Paper>
      )}
    </QueryState>
  );
}
