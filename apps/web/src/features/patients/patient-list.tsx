import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Collapse,
  Grid,
  Group,
  Menu,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArchive,
  IconArchiveOff,
  IconChevronDown,
  IconChevronUp,
  IconDotsVertical,
  IconDownload,
  IconFilter,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconPlus,
  IconSearch,
  IconSelector,
  IconToggleLeft,
  IconTrash,
  IconUsersGroup,
  IconX,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import {
  isoToMdy,
  mdyToIso,
  patientStatusFilters,
  type PatientFilterInput,
  type PatientListItem,
  type PatientSortField,
  type PatientStatusFilter,
} from '@pathwell/contracts/patients';
import { DataTable, Pager, QueryState, rangeText } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { patientApi, patientKeys, patientQueries } from './patients.api';
import { useStudyGroupOptions } from '../interventions/interventions.api';
import { CohortsModal } from '../interventions/cohorts-modal';

type PatientFilters = {
  patientStatus: PatientStatusFilter;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  ageMin: number | '';
  ageMax: number | '';
  dateOfBirth: string;
  studyGroups: string[];
};
const emptyPatientFilters: PatientFilters = {
  patientStatus: 'Active',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  ageMin: '',
  ageMax: '',
  dateOfBirth: '',
  studyGroups: [],
};

type Sort = { sortBy: PatientSortField; sortDirection: 'asc' | 'desc' };

const noWrap = { style: { whiteSpace: 'nowrap' } } as const;

function toPatientFilter(
  filters: PatientFilters,
  sort: Sort,
  pageNumber: number,
  doctorId: string | null,
  exactTotal = false,
): PatientFilterInput {
  return {
    patientStatus: filters.patientStatus,
    sortBy: sort.sortBy,
    sortDirection: sort.sortDirection,
    firstName: filters.firstName.trim() || undefined,
    lastName: filters.lastName.trim() || undefined,
    email: filters.email.trim() || undefined,
    phone: filters.phone.trim() || undefined,
    ageMin: filters.ageMin === '' ? undefined : filters.ageMin,
    ageMax: filters.ageMax === '' ? undefined : filters.ageMax,
    dateOfBirth: mdyToIso(filters.dateOfBirth.trim()) ?? undefined,
    selectedStudyGroups: filters.studyGroups.length > 0 ? filters.studyGroups : undefined,
    doctorId: doctorId ?? undefined,
    paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber, exactTotal: exactTotal || undefined },
  };
}

/** The case-status style filter panel of section 2, in the page's sidebar column. */
function FilterPanel({ onApply }: { onApply: (filters: PatientFilters) => void }) {
  const { t } = useTranslation('patients');
  const cohorts = useStudyGroupOptions();
  const [draft, setDraft] = useState<PatientFilters>(emptyPatientFilters);
  const [dateError, setDateError] = useState<string | null>(null);
  const set = <K extends keyof PatientFilters>(key: K, value: PatientFilters[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.dateOfBirth.trim() && !mdyToIso(draft.dateOfBirth.trim())) {
      setDateError(t('validation:dateInvalid'));
      return;
    }
    setDateError(null);
    onApply(draft);
  };
  return (
    <Paper withBorder p="md" radius="lg" component="form" onSubmit={submit} aria-label={t('list.filters')}>
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('list.filters')}
        </Title>
        <Select
          label={t('fields.patientStatus')}
          data={patientStatusFilters.map((status) => ({ value: status, label: t(`statusFilter.${status}`) }))}
          value={draft.patientStatus}
          onChange={(value) => {
            const next = { ...draft, patientStatus: (value ?? 'Active') as PatientStatusFilter };
            setDraft(next);
            // The status choice applies at once, like the spec's case-status radio list.
            onApply(next);
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="patients-filter-status"
        />
        <TextInput
          label={t('fields.firstName')}
          value={draft.firstName}
          onChange={(event) => set('firstName', event.currentTarget.value)}
          data-testid="patients-filter-first-name"
        />
        <TextInput
          label={t('fields.lastName')}
          value={draft.lastName}
          onChange={(event) => set('lastName', event.currentTarget.value)}
          data-testid="patients-filter-last-name"
        />
        <TextInput
          label={t('fields.email')}
          value={draft.email}
          onChange={(event) => set('email', event.currentTarget.value)}
          data-testid="patients-filter-email"
        />
        <TextInput
          label={t('fields.phone')}
          value={draft.phone}
          onChange={(event) => set('phone', event.currentTarget.value)}
          inputMode="tel"
          data-testid="patients-filter-phone"
        />
        <TextInput
          label={t('fields.dateOfBirth')}
          placeholder="MM/DD/YYYY"
          value={draft.dateOfBirth}
          error={dateError}
          onChange={(event) => set('dateOfBirth', event.currentTarget.value)}
          data-testid="patients-filter-dob"
        />
        <Group grow gap="xs">
          <NumberInput
            label={t('fields.ageMin')}
            min={0}
            max={150}
            allowDecimal={false}
            value={draft.ageMin}
            onChange={(value) => set('ageMin', typeof value === 'number' ? value : '')}
            data-testid="patients-filter-age-min"
          />
          <NumberInput
            label={t('fields.ageMax')}
            min={0}
            max={150}
            allowDecimal={false}
            value={draft.ageMax}
            onChange={(value) => set('ageMax', typeof value === 'number' ? value : '')}
            data-testid="patients-filter-age-max"
          />
        </Group>
        <MultiSelect
          label={t('interventions:cohorts.filter')}
          data={cohorts.data ?? []}
          value={draft.studyGroups}
          onChange={(value) => set('studyGroups', value)}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
          data-testid="patients-filter-cohorts"
        />
        <Group justify="flex-end" gap="xs">
          <Button
            variant="subtle"
            leftSection={<IconX size={16} aria-hidden />}
            onClick={() => {
              setDraft(emptyPatientFilters);
              setDateError(null);
              onApply(emptyPatientFilters);
            }}
          >
            {t('list.clear')}
          </Button>
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} data-testid="patients-filter-apply">
            {t('list.search')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Whole words: in the table a badge would otherwise shrink with its column ("ACCOUNT …" at 1280 px). */
function StatusBadge({ patient }: { patient: PatientListItem }) {
  const { t } = useTranslation('patients');
  if (patient.accountClosed)
    return (
      <Badge color="dark" variant="light" miw="max-content">
        {t('statusFilter.Closed')}
      </Badge>
    );
  if (patient.archived)
    return (
      <Badge color="orange" variant="light" miw="max-content">
        {t('statusFilter.Archived')}
      </Badge>
    );
  return patient.status === 'active' ? (
    <Badge color="teal" variant="light" miw="max-content">
      {t('statusFilter.Active')}
    </Badge>
  ) : (
    <Badge color="gray" variant="light" miw="max-content">
      {t('statusFilter.Inactive')}
    </Badge>
  );
}

function SortHeader({
  field,
  sort,
  onSort,
  children,
}: {
  field: PatientSortField;
  sort: Sort;
  onSort: (field: PatientSortField) => void;
  children: ReactNode;
}) {
  const activeSort = sort.sortBy === field;
  const Icon = !activeSort ? IconSelector : sort.sortDirection === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={activeSort ? (sort.sortDirection === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(field)} data-testid={`patients-sort-${field}`}>
        <Group gap={4} wrap="nowrap">
          <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {children}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

type Pending = { kind: 'archive' | 'delete' | 'close'; patient: PatientListItem } | null;

function ConfirmAction({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const { t } = useTranslation('patients');
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: async (current: NonNullable<Pending>) => {
      if (current.kind === 'archive') await patientApi.archive(current.patient.id, reason.trim());
      else if (current.kind === 'close') await patientApi.closeAccount(current.patient.id);
      else await patientApi.remove(current.patient.id);
    },
    onSuccess: async (_result, current) => {
      notify('success', t(`actions.${current.kind}Done`, { name: current.patient.fullName }));
      await queryClient.invalidateQueries({ queryKey: patientKeys.all });
      setReason('');
      onClose();
    },
  });
  if (!pending) return <Modal opened={false} onClose={onClose} />;
  return (
    <Modal opened onClose={onClose} title={t(`actions.${pending.kind}Title`)} centered>
      <Stack gap="md">
        {action.isError ? <ErrorAlert>{errorText(action.error)}</ErrorAlert> : null}
        <Text>{t(`actions.${pending.kind}Confirm`, { name: pending.patient.fullName })}</Text>
        {pending.kind === 'archive' ? (
          <Textarea
            label={t('actions.reason')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={reasonError}
            maxLength={500}
            required
            data-autofocus
            data-testid="patients-archive-reason"
          />
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color={pending.kind === 'archive' ? 'orange' : 'red'}
            loading={action.isPending}
            onClick={() => {
              if (pending.kind === 'archive' && !reason.trim()) {
                setReasonError(t('validation:required'));
                return;
              }
              setReasonError(null);
              action.mutate(pending);
            }}
            data-testid="patients-confirm-action"
          >
            {t(`actions.${pending.kind}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RowMenu({
  patient,
  canDelete,
  onPending,
}: {
  patient: PatientListItem;
  canDelete: boolean;
  onPending: (pending: Pending) => void;
}) {
  const { t } = useTranslation('patients');
  const queryClient = useQueryClient();
  const [cohortsOpen, setCohortsOpen] = useState(false);
  const change = useMutation({
    mutationFn: (kind: 'toggle' | 'unarchive' | 'reopen') =>
      kind === 'toggle'
        ? patientApi.setActive(patient.id, patient.status !== 'active')
        : kind === 'reopen'
          ? patientApi.reopenAccount(patient.id)
          : patientApi.unarchive(patient.id),
    onSuccess: async (_result, kind) => {
      const done = { toggle: 'actions.statusChanged', unarchive: 'actions.unarchiveDone', reopen: 'actions.reopenDone' } as const;
      notify('success', t(done[kind], { name: patient.fullName }));
      await queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  return (
    <>
      {cohortsOpen ? (
        <CohortsModal patientId={patient.id} patientName={patient.fullName} onClose={() => setCohortsOpen(false)} />
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            aria-label={t('list.actionsFor', { name: patient.fullName })}
            data-testid="patients-row-menu"
          >
            <IconDotsVertical size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to={`/patients/create/${patient.id}`} leftSection={<IconPencil size={16} aria-hidden />}>
            {t('actions.edit')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconToggleLeft size={16} aria-hidden />}
            onClick={() => change.mutate('toggle')}
            data-testid="patients-toggle-active"
          >
            {patient.status === 'active' ? t('actions.setInactive') : t('actions.setActive')}
          </Menu.Item>
          {patient.archived ? (
            <Menu.Item
              leftSection={<IconArchiveOff size={16} aria-hidden />}
              onClick={() => change.mutate('unarchive')}
              data-testid="patients-unarchive"
            >
              {t('actions.unarchive')}
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconArchive size={16} aria-hidden />}
              onClick={() => onPending({ kind: 'archive', patient })}
              data-testid="patients-archive"
            >
              {t('actions.archive')}
            </Menu.Item>
          )}
          {!patient.accountClosed ? (
            <Menu.Item leftSection={<IconLock size={16} aria-hidden />} onClick={() => onPending({ kind: 'close', patient })}>
              {t('actions.close')}
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconLockOpen size={16} aria-hidden />}
              onClick={() => change.mutate('reopen')}
              data-testid="patients-reopen"
            >
              {t('actions.reopen')}
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconUsersGroup size={16} aria-hidden />}
            onClick={() => setCohortsOpen(true)}
            data-testid="patients-cohorts"
          >
            {t('interventions:cohorts.editTitle')}
          </Menu.Item>
          {canDelete ? (
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => onPending({ kind: 'delete', patient })}
              data-testid="patients-delete"
            >
              {t('actions.delete')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

function AddPatientButton() {
  const { t } = useTranslation('patients');
  return (
    <Button
      component={Link}
      to="/patients/create/new"
      leftSection={<IconPlus size={16} aria-hidden />}
      data-testid="patients-add"
    >
      {t('list.addNew')}
    </Button>
  );
}

/**
 * /patients/list: filter panel, sortable columns, 15 per page, row actions, CSV export. Changes need
 * one clinic, so the all-clinics view reads only.
 */
export function PatientList({
  canChange,
  canDelete,
  doctorId,
  showAddNew,
}: {
  canChange: boolean;
  canDelete: boolean;
  doctorId: string | null;
  showAddNew: boolean;
}) {
  const { t } = useTranslation('patients');
  const [filters, setFilters] = useState<PatientFilters>(emptyPatientFilters);
  const [sort, setSort] = useState<Sort>({ sortBy: 'CreationStamp', sortDirection: 'desc' });
  const [pageNumber, setPageNumber] = useState(PAGE_NUMBER_DEFAULT);
  const [exactTotal, setExactTotal] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  // The filter panel sits beside the list only where both fit (1600 px and up); on a 1280 px desk and
  // narrower it folds away above the list, so the table keeps its columns in sight (issue #10 §4).
  const wide = useMediaQuery('(min-width: 100em)', false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filter = toPatientFilter(filters, sort, pageNumber, doctorId, exactTotal);
  const page = useQuery(patientQueries.page(filter));
  const exporter = useMutation({
    mutationFn: (format: 'csv' | 'xlsx') =>
      (format === 'csv' ? patientApi.exportCsv : patientApi.exportXlsx)({ ...filter, paginationFilter: undefined }),
    onError: (failure) => notify('error', errorText(failure)),
  });

  const apply = (next: PatientFilters) => {
    setFilters(next);
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };
  const onSort = (field: PatientSortField) => {
    setSort((current) =>
      current.sortBy === field
        ? { sortBy: field, sortDirection: current.sortDirection === 'asc' ? 'desc' : 'asc' }
        : { sortBy: field, sortDirection: field === 'CreationStamp' ? 'desc' : 'asc' },
    );
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };

  return (
    <Grid gap="lg">
      <Grid.Col span={wide ? 3 : 12}>
        {wide ? (
          <FilterPanel onApply={apply} />
        ) : (
          <Stack gap="xs">
            <Button
              variant="light"
              leftSection={<IconFilter size={16} aria-hidden />}
              onClick={() => setFiltersOpen((open) => !open)}
              aria-expanded={filtersOpen}
              data-testid="patients-filters-toggle"
            >
              {t('list.filters')}
            </Button>
            <Collapse expanded={filtersOpen}>
              <FilterPanel onApply={apply} />
            </Collapse>
          </Stack>
        )}
      </Grid.Col>
      <Grid.Col span={wide ? 9 : 12}>
        <Stack gap="md">
          <Group justify="flex-end" gap="xs" wrap="wrap">
            {showAddNew ? <AddPatientButton /> : null}
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={exporter.isPending && exporter.variables === format}
                disabled={exporter.isPending}
                onClick={() => exporter.mutate(format)}
                data-testid={`patients-export-${format}`}
              >
                {t(format === 'csv' ? 'list.exportCsv' : 'list.exportXlsx')}
              </Button>
            ))}
          </Group>
          <Paper withBorder p="md" radius="lg">
            <QueryState query={page} errorTestId="patients-error" retryLabel={t('list.retry')} keepDataOnError>
              {({ totalRecords, totalExact, data }) => {
                const sortable = (field: PatientSortField, label: string) => (
                  <SortHeader field={field} sort={sort} onSort={onSort}>
                    {label}
                  </SortHeader>
                );
                return (
                  <DataTable
                    rows={data}
                    rowKey={(patient) => patient.id}
                    rowTestId="patients-row"
                    testId="patients-table"
                    minWidth={760}
                    emptyText={t('list.empty')}
                    emptyTestId="patients-empty"
                    columns={[
                      {
                        key: 'name',
                        th: sortable('LastName', t('fields.name')),
                        cell: (patient) => (
                          <Anchor component={Link} to={`/patients/patientdashboard/${patient.id}`}>
                            {patient.fullName}
                          </Anchor>
                        ),
                      },
                      {
                        key: 'dateOfBirth',
                        th: sortable('DateOfBirth', t('fields.dateOfBirth')),
                        tdProps: noWrap,
                        cell: (patient) => isoToMdy(patient.dateOfBirth),
                      },
                      {
                        key: 'email',
                        th: sortable('Email', t('fields.email')),
                        // Addresses have no spaces: let them break anywhere rather than widen the table.
                        tdProps: { style: { overflowWrap: 'anywhere', minWidth: '10rem' } },
                        cell: (patient) => patient.email,
                      },
                      { key: 'phone', header: t('fields.phone'), tdProps: noWrap, cell: (patient) => patient.phone },
                      { key: 'doctor', header: t('fields.doctor'), cell: (patient) => patient.doctorName },
                      {
                        key: 'status',
                        header: t('fields.status'),
                        tdProps: noWrap,
                        cell: (patient) => <StatusBadge patient={patient} />,
                      },
                      {
                        key: 'created',
                        th: sortable('CreationStamp', t('fields.created')),
                        cell: (patient) => isoToMdy(patient.createdAt.slice(0, 10)),
                      },
                      canChange && {
                        key: 'actions',
                        headerLabel: t('list.actions'),
                        cell: (patient) => <RowMenu patient={patient} canDelete={canDelete} onPending={setPending} />,
                      },
                    ]}
                    footer={
                      <Pager
                        totalRecords={totalRecords}
                        pageNumber={pageNumber}
                        onPage={setPageNumber}
                        testId="patients-pagination"
                        totalExact={totalExact}
                        onCountAll={() => setExactTotal(true)}
                        summary={rangeText(pageNumber, data.length, totalRecords, totalExact)}
                        summaryTestId="patients-range"
                      />
                    }
                  />
                );
              }}
            </QueryState>
          </Paper>
        </Stack>
      </Grid.Col>
      <ConfirmAction pending={pending} onClose={() => setPending(null)} />
    </Grid>
  );
}
