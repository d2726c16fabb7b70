import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlus, IconSearch, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { roleNames, type Role } from '@pathwell/contracts/roles';
import type { SystemUser, UserFilter } from '@pathwell/contracts/user-admin';
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

function toFilter(filters: Filters, pageNumber: number): UserFilter {
  return {
    paginationFilter: { pageSize: PAGE_SIZE_DEFAULT, pageNumber },
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
  const [deleting, setDeleting] = useState<SystemUser | null>(null);
  const page = useQuery(userQueries.page(toFilter(filters, pageNumber)));

  const apply = (next: Filters) => {
    setFilters(next);
    setPageNumber(PAGE_NUMBER_DEFAULT);
  };

  let body: ReactNode;
  if (page.isError && !page.data) {
    body = (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="users-error">{errorText(page.error)}</ErrorAlert>
        <Button variant="light" onClick={() => void page.refetch()}>
          {t('list.retry')}
        </Button>
      </Stack>
    );
  } else if (!page.data) {
    body = (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  } else if (page.data.data.length === 0) {
    body = (
      <Text c="dimmed" py="lg" ta="center" data-testid="users-empty">
        {t('list.empty')}
      </Text>
    );
  } else {
    const { totalRecords, data } = page.data;
    const pages = Math.max(1, Math.ceil(totalRecords / PAGE_SIZE_DEFAULT));
    const first = pageNumber * PAGE_SIZE_DEFAULT + 1;
    body = (
      <Stack gap="md">
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th>{t('fields.email')}</Table.Th>
                <Table.Th>{t('fields.role')}</Table.Th>
                <Table.Th>{t('fields.status')}</Table.Th>
                <Table.Th>{t('fields.twoFactor')}</Table.Th>
                {canManageUsers ? <Table.Th aria-label={t('list.actions')} /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((user) => {
                const editable = canManageUsers && user.canManage;
                return (
                  <Table.Tr key={user.id} data-testid="users-row">
                    <Table.Td>
                      {editable ? (
                        <Anchor component={Link} to={`/users/userform/${user.id}`}>
                          {fullName(user)}
                        </Anchor>
                      ) : (
                        fullName(user)
                      )}
                    </Table.Td>
                    <Table.Td>{user.email}</Table.Td>
                    <Table.Td>{t(`roles.${user.role}`)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={user.status} />
                    </Table.Td>
                    <Table.Td>{user.twoFactorEnabled ? t('list.on') : t('list.off')}</Table.Td>
                    {canManageUsers ? (
                      <Table.Td>
                        {editable ? (
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
                        ) : null}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed" data-testid="users-range">
            {t('list.range', { first, last: first + data.length - 1, total: totalRecords })}
          </Text>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={pageNumber + 1}
              onChange={(value) => setPageNumber(value - 1)}
              getControlProps={(control) => ({ 'aria-label': t(`list.pageControl.${control}`) })}
              getItemProps={(number) => ({ 'aria-label': t('list.page', { number }) })}
              data-testid="users-pagination"
            />
          ) : null}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <FilterForm onApply={apply} />
      <Paper withBorder p="md" radius="lg">
        {body}
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
