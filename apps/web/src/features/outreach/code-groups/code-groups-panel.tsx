import { Badge, Button, Group, Modal, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_GROUP_MAX_CODES, codeGroupInputSchema, visitCodeSchema, type CodeGroup } from '@pathwell/contracts/outreach';
import { useSession } from '../../../app/session-context';
import { DataTable, QueryState } from '../../../components/data-table';
import { ConfirmAction } from '../../../components/confirm-action';
import { ErrorAlert } from '../../../components/error-alert';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { codeGroupApi, codeGroupKeys, codeGroupQueries } from './code-groups.api';

const SHOWN_CODES = 6;

/** The create / edit form of one code group: a name and its codes, each code checked as it is added. */
function CodeGroupForm({ group, onDone }: { group: CodeGroup | null; onDone: () => void }) {
  const { t } = useTranslation('outreachImports');
  const { t: common } = useTranslation('common');
  const queryClient = useQueryClient();
  const [name, setName] = useState(group?.name ?? '');
  const [codes, setCodes] = useState<string[]>(group?.codes ?? []);
  const [badCode, setBadCode] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (input: { name: string; codes: string[] }) =>
      group ? codeGroupApi.update(group.id, input) : codeGroupApi.create(input),
    onSuccess: async (saved) => {
      notify('success', t('groups.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: codeGroupKeys.all });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError) setFieldErrors(error.fields);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = codeGroupInputSchema.safeParse({ name, codes });
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setFieldErrors({});
    save.mutate(parsed.data);
  };
  const fieldError = (field: string) => translateValidation(fieldErrors[field]);
  const codeError = Object.entries(fieldErrors).find(([field]) => field === 'codes' || field.startsWith('codes.'))?.[1];
  const serverError = save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fields).length > 0);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('groups.name')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={fieldError('name')}
          maxLength={120}
          required
          data-autofocus
          data-testid="code-group-name"
        />
        <TagsInput
          label={t('groups.codes')}
          description={t('groups.codesHint')}
          value={codes}
          onChange={(values) => {
            const accepted: string[] = [];
            let rejected: string | null = null;
            for (const value of values) {
              const parsed = visitCodeSchema.safeParse(value);
              if (parsed.success) {
                if (!accepted.includes(parsed.data)) accepted.push(parsed.data);
              } else rejected = value;
            }
            setBadCode(rejected);
            setCodes(accepted);
          }}
          maxTags={CODE_GROUP_MAX_CODES}
          splitChars={[',', ' ', ';', '|']}
          clearable
          required
          error={badCode ? t('groups.codeInvalid', { code: badCode }) : translateValidation(codeError)}
          data-testid="code-group-codes"
        />
        {serverError ? <ErrorAlert testId="code-group-save-error">{errorText(save.error)}</ErrorAlert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {common('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="code-group-save">
            {t('groups.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Code groups (issue #15 §1): named sets of codes a clinic reuses in its code pull and hot-list templates. */
export function CodeGroupsPanel() {
  const { t } = useTranslation('outreachImports');
  const timeZone = useSession().instance.timeZoneId;
  const queryClient = useQueryClient();
  const groups = useQuery(codeGroupQueries.list());
  const [editing, setEditing] = useState<CodeGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CodeGroup | null>(null);
  const remove = async (group: CodeGroup) => {
    await codeGroupApi.remove(group.id);
    notify('success', t('groups.deleted', { name: group.name }));
    await queryClient.invalidateQueries({ queryKey: codeGroupKeys.all });
  };

  return (
    <Stack gap="md" data-testid="code-groups">
      <Group justify="space-between" wrap="wrap">
        <Text>{t('groups.intro')}</Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="code-group-new">
          {t('groups.new')}
        </Button>
      </Group>
      <QueryState query={groups} retryLabel={t('retry')} errorPrefix={t('groups.loadFailed')} errorTestId="code-groups-error">
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="code-group-row"
            minWidth={720}
            ariaLabel={t('tabs.codeGroups')}
            emptyText={t('groups.empty')}
            emptyTestId="code-groups-empty"
            columns={[
              { key: 'name', header: t('groups.name'), cell: (row) => <Text fw={600}>{row.name}</Text> },
              {
                key: 'codes',
                header: t('groups.codes'),
                cell: (row) => (
                  <Group gap={4}>
                    {row.codes.slice(0, SHOWN_CODES).map((code) => (
                      <Badge key={code} variant="light" color="gray" size="sm" tt="none">
                        {code}
                      </Badge>
                    ))}
                    {row.codes.length > SHOWN_CODES ? (
                      <Text size="sm">{t('groups.more', { count: row.codes.length - SHOWN_CODES })}</Text>
                    ) : null}
                  </Group>
                ),
              },
              { key: 'updated', header: t('groups.updated'), cell: (row) => formatClinicDate(row.updatedAt, timeZone) },
              {
                key: 'actions',
                headerLabel: t('actions'),
                cell: (row) => (
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    <Button
                      variant="subtle"
                      size="xs"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      aria-label={t('groups.editNamed', { name: row.name })}
                      onClick={() => setEditing(row)}
                    >
                      {t('groups.edit')}
                    </Button>
                    <Button
                      variant="subtle"
                      color="red.8"
                      size="xs"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      aria-label={t('groups.deleteNamed', { name: row.name })}
                      onClick={() => setDeleting(row)}
                    >
                      {t('groups.delete')}
                    </Button>
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
        title={editing === 'new' ? t('groups.newTitle') : t('groups.editTitle')}
        size="lg"
        centered
      >
        {editing !== null ? (
          <CodeGroupForm
            key={editing === 'new' ? 'new' : editing.id}
            group={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmAction
        opened={deleting !== null}
        title={t('groups.deleteTitle')}
        action={t('groups.delete')}
        testId="code-group-delete-confirm"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await remove(deleting);
        }}
      >
        {t('groups.deleteConfirm', { name: deleting?.name ?? '' })}
      </ConfirmAction>
    </Stack>
  );
}
