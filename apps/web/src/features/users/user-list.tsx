import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlus, IconSearch, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { roleNames, type Role } from '@pathwell/contracts/roles';
import type { SystemUser, UserFilter } from '@pathwell/contracts/user-admin';
import { DataTable, Pager, QueryState, rangeText } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { userApi, userKeys, userQueries } from './users.api';

type Filters = { firstName: string; lastName: string; email: string; role: Role | '' };
const emptyFilters: Filters = { firstName: '', lastName: '', email: '', role: '' };

const statusColor: Record<SystemUser['status'], string> = { active: 'teal', invited: 'blue', inactive: 'gray' };

export const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`.trim();

export function StatusBadge({ status }: { status: SystemUser['status'] }) {
  const { t } = useTranslation('users');
  return (
    <Badge variant="light" color={statusColor[status]}>
      {t(`status.${status}`)}
    </Badge>
  );
}

function toFilter(filters: Filters, pageNumber: number, exactTotal: boolean): UserFilter {
  return {
    paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber, exactTotal: exactTotal || undefined },
    firstName: filters.firstName.trim() || undefined,
    lastName: filters.lastName.trim() || undefined,
    email: filters.email.trim() || undefined,
    role: filters.role || undefined,
  };
}

function FilterForm({ onApply }: { onApply: (filters: Filters) => void }) {
  const { t } = useTranslation('users');
  const [draft, setDraft] = useState<Filters>(emptyFilters);
  const set = (key: keyof Filters) => (value: string) => setDraft((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Paper withBorder p="md" radius="lg" component="form" onSubmit={submit} aria-label={t('list.filters')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <TextInput
          label={t('fields.firstName')}
          value={draft.firstName}
          onChange={(event) => set('firstName')(event.currentTarget.value)}
          data-testid="users-filter-first-name"
        />
        <TextInput
          label={t('fields.lastName')}
          value={draft.lastName}
          onChange={(event) => set('lastName')(event.currentTarget.value)}
          data-testid="users-filter-last-name"
        />
        <TextInput
          label={t('fields.email')}
          value={draft.email}
          onChange={(event) => set('email')(event.currentTarget.value)}
          data-testid="users-filter-email"
        />
        <Select
          label={t('fields.role')}
          placeholder={t('list.anyRole')}
          data={roleNames.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
          value={draft.role || null}
          onChange={(value) => set('role')(value ?? '')}
          clearable
          data-testid="users-filter-role"
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button
          variant="subtle"
          leftSection={<IconX size={16} aria-hidden />}
          onClick={() => {
            setDraft(emptyFilters);
            onApply(emptyFilters);
          }}
        >
          {t('list.clear')}
        </Button>
        <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} data-testid="users-filter-apply">
          {t('list.search')}
        </Button>
      </Group>
    </Paper>
  );
}

export function ConfirmDeleteUser({
  user,
  onClose,
  onDeleted,
}: {
  user: Pick<SystemUser, 'id' | 'firstName' | 'lastName'> | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => userApi.remove(id),
    onSuccess: async () => {
      notify('success', t('delete.done', { name: user ? fullName(user) : '' }));
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onDeleted();
    },
  });
  return (
    <Modal opened={user !== null} onClose={onClose} title={t('delete.title')} centered>
      <Stack gap="md">
        {remove.isError ? <ErrorAlert>{errorText(remove.error)}</ErrorAlert> : null}
        <Text>{t('delete.confirm', { name: user ? fullName(user) : '' })}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => user && remove.mutate(user.id)}
            data-testid="users-delete-confirm"
          >
            {t('delete.action')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * System Users (section 2): filters, 15 per page, Add New user for those who manage users. Doctors
 * read the same list without any control that changes it (menu rule of section 6).
 */
export function UserList({ canManageUsers, currentUserId }: { canManageUsers: boolean; currentUserId: string }) {
  const { t } = useTranslation('users');
  const [filters, setFilters] = useState<Filters>(emptyFilters);
  const [pageNumber, setPageNumber] = useState(PAGE_NUMBER_DEFAULT);
  const [exactTotal, setExactTotal] = useState(false);
  const [deleting, setDeleting] = useState<SystemUser | null>(null);
  const page = useQuery(userQueries.page(toFilter(filters, pageNumber, exactTotal)));

  const apply = (next: Filters) => {
    setFilters(next);
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };

  return (
    <Stack gap="lg">
      <FilterForm onApply={apply} />
      <Paper withBorder p="md" radius="lg">
        <QueryState query={page} errorTestId="users-error" retryLabel={t('list.retry')} keepDataOnError>
          {({ totalRecords, totalExact, data }) => {
            return (
              <DataTable
                rows={data}
                rowKey={(user) => user.id}
                rowTestId="users-row"
                testId="users-table"
                minWidth={720}
                emptyText={t('list.empty')}
                emptyTestId="users-empty"
                columns={[
                  {
                    key: 'name',
                    header: t('fields.name'),
                    cell: (user) =>
                      canManageUsers && user.canManage ? (
                        <Anchor component={Link} to={`/users/userform/${user.id}`}>
                          {fullName(user)}
                        </Anchor>
                      ) : (
                        fullName(user)
                      ),
                  },
                  { key: 'email', header: t('fields.email'), cell: (user) => user.email },
                  { key: 'role', header: t('fields.role'), cell: (user) => t(`roles.${user.role}`) },
                  { key: 'status', header: t('fields.status'), cell: (user) => <StatusBadge status={user.status} /> },
                  {
                    key: 'twoFactor',
                    header: t('fields.twoFactor'),
                    cell: (user) => (user.twoFactorEnabled ? t('list.on') : t('list.off')),
                  },
                  canManageUsers && {
                    key: 'actions',
                    headerLabel: t('list.actions'),
                    cell: (user) =>
                      user.canManage ? (
                        <Group gap={4} wrap="nowrap">
                          <Tooltip label={t('list.edit')}>
                            <ActionIcon
                              component={Link}
                              to={`/users/userform/${user.id}`}
                              variant="subtle"
                              aria-label={t('list.editUser', { name: fullName(user) })}
                            >
                              <IconPencil size={18} aria-hidden />
                            </ActionIcon>
                          </Tooltip>
                          {user.id !== currentUserId ? (
                            <Tooltip label={t('delete.action')}>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                onClick={() => setDeleting(user)}
                                aria-label={t('list.deleteUser', { name: fullName(user) })}
                              >
                                <IconTrash size={18} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                          ) : null}
                        </Group>
                      ) : null,
                  },
                ]}
                footer={
                  <Pager
                    totalRecords={totalRecords}
                    pageNumber={pageNumber}
                    onPage={setPageNumber}
                    testId="users-pagination"
                    totalExact={totalExact}
                    onCountAll={() => setExactTotal(true)}
                    summary={rangeText(pageNumber, data.length, totalRecords, totalExact)}
                    summaryTestId="users-range"
                  />
                }
              />
            );
          }}
        </QueryState>
      </Paper>
      <ConfirmDeleteUser
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          setDeleting(null);
          if (page.data && page.data.data.length === 1 && pageNumber > 0) setPageNumber(pageNumber - 1);
        }}
      />
    </Stack>
  );
}

export function AddUserButton() {
  const { t } = useTranslation('users');
  return (
    <Button component={Link} to="/users/userform" leftSection={<IconPlus size={16} aria-hidden />} data-testid="users-add">
      {t('list.add')}
    </Button>
  );
}
