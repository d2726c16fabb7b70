import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AudienceTemplate, AudienceTemplateKind } from '@pathwell/contracts/outreach';
import { useSession } from '../../../app/session-context';
import { DataTable, QueryState } from '../../../components/data-table';
import { ConfirmAction } from '../../../components/confirm-action';
import { formatClinicDate } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { builderPath, templateApi, templateKeys, templateQueries } from './templates.api';

/** The codes a template names, shortened for the list ("M54.16, M54.17 +3", and its groups). */
function RuleSummary({ template }: { template: AudienceTemplate }) {
  const { t } = useTranslation('outreachTemplates');
  const { codes, codeGroupIds, matchMode } = template.rule;
  const shown = codes.slice(0, 3).join(', ');
  return (
    <Stack gap={2}>
      <Text size="sm">
        {shown || '—'}
        {codes.length > 3 ? ` ${t('list.more', { count: codes.length - 3 })}` : ''}
      </Text>
      <Group gap={4}>
        <Badge variant="light" color="gray" size="sm">
          {t(`matchModes.${matchMode}`)}
        </Badge>
        {codeGroupIds.length > 0 ? (
          <Badge variant="light" color="blue" size="sm">
            {t('list.groups', { count: codeGroupIds.length })}
          </Badge>
        ) : null}
      </Group>
    </Stack>
  );
}

/**
 * The saved audience templates of one kind (code pull templates on /templateList, hot-list templates on
 * /hotlisttemplatelist), with edit, delete and "New template".
 */
export function AudienceTemplatesPanel({ kind }: { kind: AudienceTemplateKind }) {
  const { t } = useTranslation('outreachTemplates');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const templates = useQuery(templateQueries.list(kind));
  const [deleting, setDeleting] = useState<AudienceTemplate | null>(null);
  const remove = async (template: AudienceTemplate) => {
    await templateApi.remove(template.id);
    notify('success', t('list.deleted', { name: template.name }));
    await queryClient.invalidateQueries({ queryKey: templateKeys.all });
  };

  return (
    <Stack gap="md" data-testid={`audience-templates-${kind}`}>
      <Group justify="space-between" wrap="wrap">
        <Text>{t(`list.intro.${kind}`)}</Text>
        <Button component={Link} to={builderPath(kind)} leftSection={<IconPlus size={16} aria-hidden />}>
          {t('list.new')}
        </Button>
      </Group>
      <QueryState query={templates} retryLabel={t('list.retry')} errorPrefix={t('list.loadFailed')} errorTestId="templates-error">
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="template-row"
            minWidth={760}
            ariaLabel={t(`list.title.${kind}`)}
            emptyText={t(`list.empty.${kind}`)}
            emptyTestId="templates-empty"
            columns={[
              {
                key: 'name',
                header: t('list.columns.name'),
                cell: (row) => (
                  <Stack gap={2}>
                    <Anchor component={Link} to={builderPath(kind, row.id)} fw={600}>
                      {row.name}
                    </Anchor>
                    {row.description ? <Text size="sm">{row.description}</Text> : null}
                  </Stack>
                ),
              },
              { key: 'rule', header: t('list.columns.codes'), cell: (row) => <RuleSummary template={row} /> },
              {
                key: 'updated',
                header: t('list.columns.updated'),
                cell: (row) => (
                  <Stack gap={0}>
                    <Text size="sm">{formatClinicDate(row.updatedAt, timeZone)}</Text>
                    {row.createdByName ? <Text size="sm">{t('list.by', { name: row.createdByName })}</Text> : null}
                  </Stack>
                ),
              },
              {
                key: 'actions',
                headerLabel: t('list.columns.actions'),
                cell: (row) => (
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    <Button
                      component={Link}
                      to={builderPath(kind, row.id)}
                      variant="subtle"
                      size="xs"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      aria-label={t('list.editNamed', { name: row.name })}
                    >
                      {t('list.edit')}
                    </Button>
                    <Button
                      variant="subtle"
                      color="red.8"
                      size="xs"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      aria-label={t('list.deleteNamed', { name: row.name })}
                      onClick={() => setDeleting(row)}
                    >
                      {t('list.delete')}
                    </Button>
                  </Group>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <ConfirmAction
        opened={deleting !== null}
        title={t('list.deleteTitle')}
        action={t('list.delete')}
        testId="template-delete-confirm"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await remove(deleting);
        }}
      >
        {t('list.deleteConfirm', { name: deleting?.name ?? '' })}
      </ConfirmAction>
    </Stack>
  );
}
