import { ActionIcon, Anchor, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconPencil, IconPlus, IconRestore, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CustomFormListItem } from '@pathwell/contracts/custom-forms';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { DataTable, Pager, QueryState } from '../../components/data-table';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { customFormApi, customFormKeys, customFormQueries } from './custom-forms.api';

export function AddCustomFormButton() {
  const { t } = useTranslation('customForms');
  return (
    <Button
      component={Link}
      to="/customforms/new"
      leftSection={<IconPlus size={16} aria-hidden />}
      data-testid="custom-forms-add"
    >
      {t('add')}
    </Button>
  );
}

/** The clinic's custom forms: search by title, in use or archived, paged by 15. */
export function CustomFormList() {
  const { t } = useTranslation('customForms');
  const session = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [title] = useDebouncedValue(search.trim(), 300);
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(0);
  const list = useQuery({
    ...customFormQueries.list({ title: title || undefined, archived, pageNumber: page, pageSize: PAGE_SIZE_DEFAULT }),
    placeholderData: keepPreviousData,
  });
  const [busyId, setBusyId] = useState<string | null>(null);

  const toggleArchive = async (form: CustomFormListItem) => {
    setBusyId(form.id);
    try {
      if (form.archived) await customFormApi.restore(form.id);
      else await customFormApi.archive(form.id);
      notify('success', t(form.archived ? 'restored' : 'archived', { title: form.title }));
      await queryClient.invalidateQueries({ queryKey: customFormKeys.all });
    } catch (error) {
      notify('error', errorText(error));
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Paper withBorder p="md" radius="lg">
      <Stack gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput
            label={t('search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(0);
            }}
            w={280}
            data-testid="custom-forms-search"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="custom-forms-show-label">
              {t('show')}
            </Text>
            <SegmentedControl
              aria-labelledby="custom-forms-show-label"
              value={archived ? 'archived' : 'inUse'}
              onChange={(value) => {
                setArchived(value === 'archived');
                setPage(0);
              }}
              data={[
                { value: 'inUse', label: t('inUse') },
                { value: 'archived', label: t('archivedForms') },
              ]}
            />
          </Stack>
        </Group>

        <QueryState query={list} errorTestId="custom-forms-error" retryLabel={t('retry')} loadingLabel={t('loading')}>
          {({ data }) => (
            <DataTable
              rows={data}
              rowKey={(form) => form.id}
              rowTestId="custom-forms-row"
              testId="custom-forms-table"
              minWidth={720}
              emptyText={t('empty')}
              emptyTestId="custom-forms-empty"
              columns={[
                {
                  key: 'title',
                  header: t('columns.title'),
                  cell: (form) => (
                    <Anchor component={Link} to={`/customforms/${form.id}`}>
                      {form.title}
                    </Anchor>
                  ),
                },
                { key: 'version', header: t('columns.version'), cell: (form) => form.currentVersion },
                { key: 'questions', header: t('columns.questions'), cell: (form) => form.questionCount },
                { key: 'responses', header: t('columns.responses'), cell: (form) => form.responseCount },
                {
                  key: 'updated',
                  header: t('columns.updated'),
                  cell: (form) => formatClinicDate(form.updatedAt, session.instance.timeZoneId),
                },
                {
                  key: 'actions',
                  headerLabel: t('columns.actions'),
                  cell: (form) => (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label={t('edit', { title: form.title })}>
                        <ActionIcon
                          component={Link}
                          to={`/customforms/${form.id}`}
                          variant="subtle"
                          aria-label={t('edit', { title: form.title })}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={form.archived ? t('restore') : t('archive')}>
                        <ActionIcon
                          variant="subtle"
                          color={form.archived ? 'teal' : 'red'}
                          loading={busyId === form.id}
                          onClick={() => void toggleArchive(form)}
                          aria-label={
                            form.archived ? t('restoreNamed', { title: form.title }) : t('archiveNamed', { title: form.title })
                          }
                        >
                          {form.archived ? <IconRestore size={18} aria-hidden /> : <IconArchive size={18} aria-hidden />}
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  ),
                },
              ]}
            />
          )}
        </QueryState>

        {list.data ? (
          <Pager totalRecords={list.data.totalRecords} pageSize={list.data.pageSize} pageNumber={page} onPage={setPage} />
        ) : null}
      </Stack>
    </Paper>
  );
}
