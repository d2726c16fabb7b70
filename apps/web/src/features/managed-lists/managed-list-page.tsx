import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_MIN_CHARS } from '@pathwell/contracts/constants';
import type { FieldDescriptor, ManagedItem, ManagedListDefinition } from '@pathwell/contracts/managed-lists';
import { DataTable, Pager, QueryState, type DataColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { ManagedItemForm, type ItemFormOutput } from './managed-item-form';
import { ConfirmDeleteModal, optionLabel, useCanWrite } from './managed-list-shared';
import { defaultListParams, managedListApi, managedListKeys, managedListQueries, type SortField } from './managed-lists.api';

type ActiveFilter = 'all' | 'active' | 'inactive';

function AttributeValue({ field, value: stored }: { field: FieldDescriptor; value: unknown }) {
  const { t, i18n } = useTranslation('lists');
  const value = field.kind === 'select' && (stored === undefined || stored === null) ? field.valueWhenMissing : stored;
  if (value === undefined || value === null || value === '') return <Text c="dimmed">{t('values.none')}</Text>;
  switch (field.kind) {
    case 'boolean':
      return <>{value === true ? t('values.yes') : t('values.no')}</>;
    case 'select':
      return (
        <>
          {optionLabel(
            field.options.find((option) => option.value === value),
            i18n.language,
          ) ?? String(value)}
        </>
      );
    case 'number':
      return <>{typeof value === 'number' ? value.toLocaleString(i18n.language) : String(value)}</>;
    case 'text':
    case 'textarea':
    case 'email':
    case 'phone':
      // Short values (codes, phone numbers) stay on one line; long ones wrap and clamp.
      return field.maxLength <= 40 ? (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {String(value)}
        </Text>
      ) : (
        <Text size="sm" lineClamp={2}>
          {String(value)}
        </Text>
      );
  }
}

function SortableHeader({
  column,
  label,
  sortBy,
  direction,
  onSort,
}: {
  column: SortField;
  label: string;
  sortBy: SortField;
  direction: 'asc' | 'desc';
  onSort: (column: SortField) => void;
}) {
  const { t } = useTranslation('lists');
  const active = sortBy === column;
  const Icon = !active ? IconArrowsSort : direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => onSort(column)}
        aria-label={t('sort.by', { column: label })}
        data-testid={`sort-${column}`}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600 }}
      >
        {label}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

const toInput = (item: ManagedItem) => ({
  name: item.name,
  isActive: item.isActive,
  sortOrder: item.sortOrder,
  attributes: item.attributes,
});

/**
 * The one admin page of every managed list: search, sortable columns, paging by 15, the active flag,
 * add and edit in a modal built from the catalogue, delete after confirmation. Users who may only read
 * (Doctors and Staff reach some lists outside the menu) see the same table without the controls.
 */
export function ManagedListPage({
  list,
  title: titleOverride,
  children,
}: {
  list: ManagedListDefinition;
  /** Replaces the list's own title (custom fields show "Custom fields: Race"). */
  title?: string;
  /** Drawn between the header and the table (the custom-field tabs). */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation('lists');
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(list.menuPath);
  const title = titleOverride ?? t(list.titleKey);

  const [searchText, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(searchText.trim(), 300);
  // Section 5: a search runs from the third character; fewer characters show the whole list.
  const search = debouncedSearch.length >= SEARCH_MIN_CHARS ? debouncedSearch : undefined;
  const [sortBy, setSortBy] = useState<SortField>(defaultListParams.sortBy);
  const [sortDirection, setSortDirection] = useState<'asc' | 'desc'>('asc');
  const [activeFilter, setActiveFilter] = useState<ActiveFilter>('all');
  const [pageNumber, setPageNumber] = useState(0);
  const params = {
    ...defaultListParams,
    search,
    sortBy,
    sortDirection,
    active: activeFilter === 'all' ? undefined : activeFilter === 'active',
    pageNumber,
  };
  const page = useQuery(managedListQueries.page(list, params));

  const [editing, setEditing] = useState<ManagedItem | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ManagedItem | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: managedListKeys.list(list) });

  const toggle = useMutation({
    mutationFn: (item: ManagedItem) => managedListApi.update(list, item.id, { ...toInput(item), isActive: !item.isActive }),
    onSuccess: (updated) => {
      notify(
        'success',
        t('actions.toggled', { name: updated.name, state: t(updated.isActive ? 'values.active' : 'values.inactive') }),
      );
      return refresh();
    },
    onError: (failure) => notify('error', errorText(failure)),
  });

  const save = async (values: ItemFormOutput) => {
    if (editing === 'new') await managedListApi.create(list, values);
    else if (editing) await managedListApi.update(list, editing.id, values);
    setEditing(null);
    notify('success', t('form.saved'));
    await refresh();
  };

  const remove = async () => {
    if (!deleting) return;
    await managedListApi.remove(list, deleting.id);
    notify('success', t('delete.done', { name: deleting.name }));
    setDeleting(null);
    // The last entry of a later page is gone: step back rather than show an empty page.
    if (page.data && page.data.data.length === 1 && pageNumber > 0) setPageNumber(pageNumber - 1);
    await refresh();
  };

  const sort = (column: SortField) => {
    if (column === sortBy) setSortDirection(sortDirection === 'asc' ? 'desc' : 'asc');
    else {
      setSortBy(column);
      setSortDirection('asc');
    }
    setPageNumber(0);
  };

  const tableFields = list.fields.filter((field) => field.inTable);

  const sortable = (column: SortField, label: string) => (
    <SortableHeader column={column} label={label} sortBy={sortBy} direction={sortDirection} onSort={sort} />
  );
  const columns: (DataColumn<ManagedItem> | null)[] = [
    { key: 'name', th: sortable('name', t('columns.name')), tdProps: { fw: 500 }, cell: (item) => item.name },
    ...tableFields.map((field): DataColumn<ManagedItem> => ({
      key: `field-${field.name}`,
      header: t(field.labelKey),
      cell: (item) => <AttributeValue field={field} value={item.attributes[field.name]} />,
    })),
    { key: 'sortOrder', th: sortable('sortOrder', t('columns.sortOrder')), cell: (item) => item.sortOrder },
    {
      key: 'createdAt',
      th: sortable('createdAt', t('columns.createdAt')),
      cell: (item) => new Date(item.createdAt).toLocaleDateString(i18n.language),
    },
    {
      key: 'active',
      header: t('columns.active'),
      cell: (item) =>
        canWrite ? (
          <Switch
            checked={toggle.isPending && toggle.variables?.id === item.id ? !item.isActive : item.isActive}
            onChange={() => toggle.mutate(item)}
            disabled={toggle.isPending}
            aria-label={t('actions.activate', { name: item.name })}
          />
        ) : (
          <Badge variant="light" miw="max-content" color={item.isActive ? 'teal' : 'gray'}>
            {t(item.isActive ? 'page.filter.active' : 'page.filter.inactive')}
          </Badge>
        ),
    },
    canWrite
      ? {
          key: 'actions',
          header: t('columns.actions'),
          thProps: { style: { width: 96 } },
          cell: (item) => (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('actions.edit', { name: item.name })}>
                <ActionIcon variant="subtle" aria-label={t('actions.edit', { name: item.name })} onClick={() => setEditing(item)}>
                  <IconPencil size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('actions.delete', { name: item.name })}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('actions.delete', { name: item.name })}
                  onClick={() => setDeleting(item)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          ),
        }
      : null,
  ];

  return (
    <>
      <PageHeader
        title={title}
        description={canWrite ? t('page.description') : t('page.readOnly')}
        actions={
          canWrite ? (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setEditing('new')}
              data-testid="managed-list-add"
            >
              {t('page.add')}
            </Button>
          ) : null
        }
      />
      {children}
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <TextInput
              label={t('page.search')}
              description={t('page.searchHint')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={searchText}
              onChange={(event) => {
                setSearchText(event.currentTarget.value);
                setPageNumber(0);
              }}
              type="search"
              w={{ base: '100%', sm: 320 }}
              data-testid="managed-list-search"
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id={`active-filter-${list.listType}`}>
                {t('page.filterLabel')}
              </Text>
              <SegmentedControl
                aria-labelledby={`active-filter-${list.listType}`}
                value={activeFilter}
                onChange={(value) => {
                  setActiveFilter(value as ActiveFilter);
                  setPageNumber(0);
                }}
                data={(['all', 'active', 'inactive'] as const).map((value) => ({ value, label: t(`page.filter.${value}`) }))}
              />
            </Stack>
          </Group>
          <QueryState
            query={page}
            errorTestId="managed-list-error"
            errorPrefix={t('page.loadFailed')}
            retryLabel={t('page.retry')}
            keepDataOnError
          >
            {({ data }) => (
              <DataTable
                rows={data}
                rowKey={(item) => item.id}
                rowTestId="managed-list-row"
                testId="managed-list-table"
                ariaLabel={t('page.tableLabel', { list: title })}
                minWidth={640}
                emptyText={search || activeFilter !== 'all' ? t('page.noMatch') : t('page.empty')}
                emptyTestId="managed-list-empty"
                columns={columns}
              />
            )}
          </QueryState>
          {page.data && page.data.totalRecords > 0 ? (
            <Pager
              totalRecords={page.data.totalRecords}
              pageNumber={pageNumber}
              onPage={setPageNumber}
              ariaLabel={t('page.pages')}
              summary={t('page.total', { count: page.data.totalRecords })}
              summaryTestId="managed-list-total"
            />
          ) : null}
        </Stack>
      </Paper>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing === 'new' || editing === null
            ? t('form.addTitle', { list: title })
            : t('form.editTitle', { name: editing.name })
        }
        size="lg"
      >
        {editing !== null ? (
          <ManagedItemForm
            key={editing === 'new' ? 'new' : editing.id}
            list={list}
            item={editing === 'new' ? null : editing}
            onSubmit={save}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('delete.title', { name: deleting?.name ?? '' })}
        body={t('delete.body', { name: deleting?.name ?? '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      />
    </>
  );
}
