import { ActionIcon, Badge, Button, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PathwaySummary } from '@pathwell/contracts/pathways';
import { useSession } from '../../app/session-context';
import { DataTable, QueryState } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { PathwayEditor } from './pathway-editor';
import { PathwayRoster } from './pathway-roster';
import { pathwayApi, pathwayKeys, pathwayQueries } from './pathways.api';

const isAdmin = (role: string) => role === 'Admin' || role === 'SystemManager';

/** /pathways: every role sees the clinic's pathways; Admins and System Managers build them and see the completion rate. */
export function PathwayList() {
  const { t, i18n } = useTranslation('pathways');
  const session = useSession();
  const admin = isAdmin(session.user.role);
  const list = useQuery(pathwayQueries.list());
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PathwaySummary | null>(null);
  const [roster, setRoster] = useState<PathwaySummary | null>(null);
  const remove = useMutation({
    mutationFn: (row: PathwaySummary) => pathwayApi.remove(row.id),
    onSuccess: () => {
      notify('success', t('deleted'));
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: pathwayKeys.all });
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const percent = (value: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(value);

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          admin ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="pathway-add">
              {t('add')}
            </Button>
          ) : undefined
        }
      />
      <QueryState
        query={list}
        retryLabel={t('retry')}
        errorPrefix={t('loadFailed')}
        loadingLabel={t('loading')}
        errorTestId="pathways-error"
      >
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="pathway-row"
            minWidth={880}
            ariaLabel={t('title')}
            emptyText={t('empty')}
            emptyTestId="pathways-empty"
            columns={[
              {
                key: 'name',
                header: t('columns.name'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Group gap={6} wrap="wrap">
                      <Text fw={600} size="sm">
                        {row.name}
                      </Text>
                      {row.isExample ? (
                        <Tooltip label={t('exampleNotice')} multiline w={260}>
                          <Badge color="yellow" variant="light" size="sm" data-testid="pathway-example">
                            {t('example')}
                          </Badge>
                        </Tooltip>
                      ) : null}
                      {!row.isActive ? (
                        <Badge color="gray" variant="light" size="sm">
                          {t('inactive')}
                        </Badge>
                      ) : null}
                    </Group>
                    {row.description ? (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {row.description}
                      </Text>
                    ) : null}
                  </Stack>
                ),
              },
              { key: 'trigger', header: t('columns.trigger'), cell: (row) => t(`triggers.${row.trigger}`) },
              { key: 'steps', header: t('columns.steps'), cell: (row) => row.stepCount },
              { key: 'enrolled', header: t('columns.enrolled'), cell: (row) => row.activeEnrolments },
              { key: 'completed', header: t('columns.completedEnrolments'), cell: (row) => row.completedEnrolments },
              {
                key: 'roster',
                headerLabel: t('roster.title'),
                cell: (row: PathwaySummary) => (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconUsers size={16} aria-hidden />}
                    aria-label={t('roster.of', { name: row.name })}
                    onClick={() => setRoster(row)}
                    data-testid="pathway-roster-open"
                  >
                    {t('roster.open')}
                  </Button>
                ),
              },
              admin && {
                key: 'rate',
                header: t('columns.completionRate'),
                cell: (row: PathwaySummary) =>
                  row.completionRate === null
                    ? t('noneDue')
                    : t('rateOf', { rate: percent(row.completionRate), completed: row.completedRuns, due: row.dueRuns }),
              },
              admin && {
                key: 'actions',
                headerLabel: t('columns.actions'),
                cell: (row: PathwaySummary) => (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={t('editOf', { name: row.name })} onClick={() => setEditing(row.id)}>
                      <IconPencil size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('deleteOf', { name: row.name })}
                      onClick={() => setDeleting(row)}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('editor.createTitle') : t('editor.editTitle')}
        size="xl"
      >
        {editing === 'new' ? <PathwayEditor pathway={null} onClose={() => setEditing(null)} /> : null}
        {editing && editing !== 'new' ? <EditExisting id={editing} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <Modal
        opened={roster !== null}
        onClose={() => setRoster(null)}
        title={roster ? t('roster.titleOf', { name: roster.name }) : t('roster.title')}
        size="xl"
      >
        {roster ? <PathwayRoster pathwayId={roster.id} timeZone={session.instance.timeZoneId} /> : null}
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('delete')}>
        <Stack>
          <Text>{t('deleteConfirm', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting)}
              data-testid="pathway-delete-confirm"
            >
              {t('delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function EditExisting({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('pathways');
  const pathway = useQuery(pathwayQueries.one(id));
  if (pathway.isError) return <ErrorAlert>{errorText(pathway.error)}</ErrorAlert>;
  if (!pathway.data) return <Loader aria-label={t('loading')} />;
  return <PathwayEditor pathway={pathway.data} onClose={onClose} />;
}
