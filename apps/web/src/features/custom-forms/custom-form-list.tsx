import {
  ActionIcon,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconPencil, IconPlus, IconRestore, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CustomFormListItem } from '@pathwell/contracts/custom-forms';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
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

  const pages = list.data ? Math.max(1, Math.ceil(list.data.totalRecords / list.data.pageSize)) : 1;

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

        {list.isError ? (
          <Stack gap="sm" align="flex-start">
            <ErrorAlert testId="custom-forms-error">{errorText(list.error)}</ErrorAlert>
            <Button variant="light" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Stack>
        ) : !list.data ? (
          <Center py="xl">
            <Loader aria-label={t('loading')} />
          </Center>
        ) : list.data.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" data-testid="custom-forms-empty">
            {t('empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover verticalSpacing="sm" data-testid="custom-forms-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.title')}</Table.Th>
                  <Table.Th>{t('columns.version')}</Table.Th>
                  <Table.Th>{t('columns.questions')}</Table.Th>
                  <Table.Th>{t('columns.responses')}</Table.Th>
                  <Table.Th>{t('columns.updated')}</Table.Th>
                  <Table.Th aria-label={t('columns.actions')} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.data.map((form) => (
                  <Table.Tr key={form.id} data-testid="custom-forms-row">
                    <Table.Td>
                      <Anchor component={Link} to={`/customforms/${form.id}`}>
                        {form.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{form.currentVersion}</Table.Td>
                    <Table.Td>{form.questionCount}</Table.Td>
                    <Table.Td>{form.responseCount}</Table.Td>
                    <Table.Td>{formatClinicDate(form.updatedAt, session.instance.timeZoneOffsetHours)}</Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}

        {pages > 1 ? (
          <Group justify="center">
            <Pagination
              total={pages}
              value={page + 1}
              onChange={(value) => setPage(value - 1)}
              getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })}
              getItemProps={(number) => ({ 'aria-label': t('page', { number }) })}
            />
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
