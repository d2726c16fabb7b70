import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Badge,
  Button,
  Center,
  Drawer,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCopy, IconMessages, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, SEARCH_MIN_CHARS } from '@pathwell/contracts/constants';
import {
  ADMIN_GROUP_MENU_PATH,
  perioperativeDetailInputSchema,
  perioperativeTemplateInputSchema,
  type PerioperativeDetail,
  type PerioperativeDetailInput,
  type PerioperativeTemplateInput,
  type PerioperativeTemplateSummary,
} from '@pathwell/contracts/managed-lists';
import { DataTable, Pager, QueryState } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { TemplateActiveSwitch, TemplateEditorForm, TemplateRowActions } from '../../components/template-editor';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { ConfirmDeleteModal, useCanWrite } from './managed-list-shared';
import { perioperativeApi, perioperativeKeys, perioperativeQueries } from './managed-lists.api';

type TemplateValues = { name: string; codes: string[]; isActive: boolean };
type DetailValues = {
  dayOffset: number | string | undefined;
  channel: 'email' | 'sms';
  subject: string;
  messageEn: string;
  messageEs: string;
};

function useWhen() {
  const { t } = useTranslation('lists');
  return (dayOffset: number) =>
    dayOffset === 0
      ? t('perioperative.detail.sameDay')
      : dayOffset < 0
        ? t('perioperative.detail.before', { count: -dayOffset })
        : t('perioperative.detail.after', { count: dayOffset });
}

function TemplateForm({
  template,
  onSaved,
  onCancel,
}: {
  template: PerioperativeTemplateSummary | null;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('lists');
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<TemplateValues>({
    resolver: zodResolver(perioperativeTemplateInputSchema) as unknown as Resolver<TemplateValues>,
    defaultValues: { name: template?.name ?? '', codes: template?.codes ?? [], isActive: template?.isActive ?? true },
  });
  const codeErrors = errors.codes as unknown as ({ message?: string } | undefined)[] | { message?: string } | undefined;
  const codesError = Array.isArray(codeErrors) ? codeErrors.find((entry) => entry?.message)?.message : codeErrors?.message;

  const submit = handleSubmit(async (values) => {
    setError(null);
    const input: PerioperativeTemplateInput = values;
    try {
      if (template) await perioperativeApi.update(template.id, input);
      else await perioperativeApi.create(input);
      await onSaved();
    } catch (failure) {
      if (!applyServerFieldErrors<TemplateValues>(failure, setFieldError, ['name', 'codes', 'isActive']))
        setError(errorText(failure));
    }
  });

  return (
    <TemplateEditorForm
      testId="template-form"
      error={error}
      onSubmit={submit}
      onCancel={onCancel}
      cancelLabel={t('common:cancel')}
      saveLabel={t('common:save')}
      saveTestId="template-save"
      isSubmitting={isSubmitting}
    >
      <TextInput
        label={t('perioperative.name')}
        required
        data-autofocus
        error={translateValidation(errors.name?.message)}
        data-testid="template-name"
        {...register('name')}
      />
      <Controller
        control={control}
        name="codes"
        render={({ field }) => (
          <TagsInput
            label={t('perioperative.codes')}
            description={t('perioperative.codesHelp')}
            value={field.value}
            onChange={(codes) => field.onChange(codes.map((code) => code.trim().toUpperCase()))}
            onBlur={field.onBlur}
            ref={field.ref}
            splitChars={[',', ' ']}
            error={translateValidation(codesError)}
            data-testid="template-codes"
          />
        )}
      />
      <TemplateActiveSwitch control={control} label={t('form.isActive')} />
    </TemplateEditorForm>
  );
}

function DetailForm({
  templateId,
  detail,
  onSaved,
  onCancel,
}: {
  templateId: string;
  detail: PerioperativeDetail | null;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('lists');
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    watch,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<DetailValues, unknown, PerioperativeDetailInput>({
    resolver: zodResolver(perioperativeDetailInputSchema) as unknown as Resolver<DetailValues, unknown, PerioperativeDetailInput>,
    defaultValues: {
      dayOffset: detail?.dayOffset ?? 0,
      channel: detail?.channel ?? 'sms',
      subject: detail?.subject ?? '',
      messageEn: detail?.messageEn ?? '',
      messageEs: detail?.messageEs ?? '',
    },
  });
  const channel = watch('channel');

  const submit = handleSubmit(async (values) => {
    setError(null);
    const input = values;
    try {
      if (detail) await perioperativeApi.updateDetail(templateId, detail.id, input);
      else await perioperativeApi.createDetail(templateId, input);
      await onSaved();
    } catch (failure) {
      const shown = ['dayOffset', 'channel', 'subject', 'messageEn', 'messageEs'] as const;
      if (!applyServerFieldErrors<DetailValues>(failure, setFieldError, shown)) setError(errorText(failure));
    }
  });

  return (
    <TemplateEditorForm
      testId="detail-form"
      error={error}
      onSubmit={submit}
      onCancel={onCancel}
      cancelLabel={t('common:cancel')}
      saveLabel={t('common:save')}
      saveTestId="detail-save"
      isSubmitting={isSubmitting}
    >
      <Group grow align="flex-start">
        <Controller
          control={control}
          name="dayOffset"
          render={({ field }) => (
            <NumberInput
              label={t('perioperative.detail.dayOffset')}
              description={t('perioperative.detail.dayOffsetHelp')}
              required
              allowDecimal={false}
              min={-365}
              max={365}
              value={field.value ?? ''}
              // "-" on its way to "-2" stays text until the number is complete.
              onChange={(value) => field.onChange(value === '' ? undefined : value)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={translateValidation(errors.dayOffset?.message)}
              data-testid="detail-day"
            />
          )}
        />
        <Controller
          control={control}
          name="channel"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="detail-channel-label">
                {t('perioperative.detail.channel')}
              </Text>
              <SegmentedControl
                aria-labelledby="detail-channel-label"
                value={field.value}
                onChange={(value) => field.onChange(value)}
                data={(['sms', 'email'] as const).map((value) => ({ value, label: t(`perioperative.channels.${value}`) }))}
              />
            </Stack>
          )}
        />
      </Group>
      {channel === 'email' ? (
        <TextInput
          label={t('perioperative.detail.subject')}
          required
          maxLength={200}
          error={translateValidation(errors.subject?.message)}
          data-testid="detail-subject"
          {...register('subject')}
        />
      ) : null}
      <Textarea
        label={t('perioperative.detail.messageEn')}
        required
        rows={4}
        error={translateValidation(errors.messageEn?.message)}
        data-testid="detail-message-en"
        {...register('messageEn')}
      />
      <Textarea
        label={t('perioperative.detail.messageEs')}
        description={t('perioperative.detail.messageEsHelp')}
        rows={4}
        error={translateValidation(errors.messageEs?.message)}
        data-testid="detail-message-es"
        {...register('messageEs')}
      />
    </TemplateEditorForm>
  );
}

function TemplateMessages({ template, canWrite }: { template: PerioperativeTemplateSummary; canWrite: boolean }) {
  const { t } = useTranslation('lists');
  const when = useWhen();
  const queryClient = useQueryClient();
  const query = useQuery(perioperativeQueries.one(template.id));
  const [editing, setEditing] = useState<PerioperativeDetail | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PerioperativeDetail | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: perioperativeKeys.all });

  if (query.isError) return <ErrorAlert>{errorText(query.error)}</ErrorAlert>;
  if (!query.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  const details = query.data.details;
  return (
    <Stack gap="md">
      {canWrite ? (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="detail-add">
            {t('perioperative.addMessage')}
          </Button>
        </Group>
      ) : null}
      {details.length === 0 ? (
        <Text c="dimmed">{t('perioperative.messagesEmpty')}</Text>
      ) : (
        <Table verticalSpacing="sm" aria-label={t('perioperative.messageTableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('perioperative.detail.when')}</Table.Th>
              <Table.Th>{t('perioperative.detail.channel')}</Table.Th>
              <Table.Th>{t('perioperative.detail.messageEn')}</Table.Th>
              {canWrite ? <Table.Th>{t('columns.actions')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {details.map((detail) => (
              <Table.Tr key={detail.id} data-testid="detail-row">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(detail.dayOffset)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" tt="none" miw="max-content" color={detail.channel === 'email' ? 'blue' : 'grape'}>
                    {t(`perioperative.channels.${detail.channel}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {detail.subject ? <Text fw={500}>{detail.subject}</Text> : null}
                  <Text size="sm" lineClamp={3}>
                    {detail.messageEn}
                  </Text>
                </Table.Td>
                {canWrite ? (
                  <Table.Td>
                    <TemplateRowActions
                      editLabel={t('perioperative.detail.edit', { when: when(detail.dayOffset) })}
                      deleteLabel={t('perioperative.detail.delete', { when: when(detail.dayOffset) })}
                      onEdit={() => setEditing(detail)}
                      onDelete={() => setDeleting(detail)}
                      iconSize={18}
                    />
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('perioperative.detail.addTitle') : t('perioperative.detail.editTitle')}
        size="lg"
      >
        {editing !== null ? (
          <DetailForm
            key={editing === 'new' ? 'new' : editing.id}
            templateId={template.id}
            detail={editing === 'new' ? null : editing}
            onSaved={async () => {
              setEditing(null);
              notify('success', t('form.saved'));
              await refresh();
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('perioperative.detail.deleteTitle')}
        body={
          deleting
            ? t('perioperative.detail.deleteBody', {
                channel: t(`perioperative.channels.${deleting.channel}`).toLowerCase(),
                when: when(deleting.dayOffset).toLowerCase(),
              })
            : ''
        }
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await perioperativeApi.removeDetail(template.id, deleting.id);
          setDeleting(null);
          notify('success', t('perioperative.detail.deleted'));
          await refresh();
        }}
      />
    </Stack>
  );
}

/** Perioperative message templates with their timed messages (docs/decisions/0008-managed-list-fields.md). */
export function PerioperativeTemplatesPage() {
  const { t } = useTranslation('lists');
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(ADMIN_GROUP_MENU_PATH);
  const [searchText, setSearchText] = useState('');
  const [debounced] = useDebouncedValue(searchText.trim(), 300);
  const [pageNumber, setPageNumber] = useState(0);
  const search = debounced.length >= SEARCH_MIN_CHARS ? debounced : undefined;
  const page = useQuery(perioperativeQueries.page({ search, pageNumber, pageSize: PAGE_SIZE_DEFAULT }));
  const [editing, setEditing] = useState<PerioperativeTemplateSummary | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PerioperativeTemplateSummary | null>(null);
  const [messagesOf, setMessagesOf] = useState<PerioperativeTemplateSummary | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: perioperativeKeys.all });

  return (
    <>
      <PageHeader
        title={t('perioperative.title')}
        description={t('perioperative.description')}
        actions={
          canWrite ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="template-add">
              {t('perioperative.add')}
            </Button>
          ) : null
        }
      />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="md">
          <TextInput
            label={t('page.search')}
            description={t('page.searchHint')}
            leftSection={<IconSearch size={16} aria-hidden />}
            type="search"
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              setPageNumber(0);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          <QueryState query={page} errorPrefix={t('page.loadFailed')} retryLabel={t('page.retry')} keepDataOnError>
            {({ data }) => (
              <DataTable
                rows={data}
                rowKey={(template) => template.id}
                rowTestId="template-row"
                ariaLabel={t('perioperative.tableLabel')}
                minWidth={640}
                highlightOnHover={false}
                emptyText={search ? t('page.noMatch') : t('perioperative.empty')}
                columns={[
                  { key: 'name', header: t('columns.name'), tdProps: { fw: 500 }, cell: (template) => template.name },
                  {
                    key: 'codes',
                    header: t('perioperative.columns.codes'),
                    cell: (template) => (
                      <Group gap={4}>
                        {template.codes.length === 0 ? <Text c="dimmed">{t('values.none')}</Text> : null}
                        {template.codes.map((code) => (
                          <Badge key={code} variant="outline" color="gray">
                            {code}
                          </Badge>
                        ))}
                      </Group>
                    ),
                  },
                  { key: 'messages', header: t('perioperative.columns.messages'), cell: (template) => template.detailCount },
                  {
                    key: 'active',
                    header: t('columns.active'),
                    cell: (template) => (
                      <Badge variant="light" miw="max-content" color={template.isActive ? 'teal' : 'gray'}>
                        {t(template.isActive ? 'page.filter.active' : 'page.filter.inactive')}
                      </Badge>
                    ),
                  },
                  {
                    key: 'actions',
                    header: t('columns.actions'),
                    cell: (template) => (
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('perioperative.openMessages', { name: template.name })}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('perioperative.openMessages', { name: template.name })}
                            onClick={() => setMessagesOf(template)}
                          >
                            <IconMessages size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        {canWrite ? (
                          <>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('actions.edit', { name: template.name })}
                              onClick={() => setEditing(template)}
                            >
                              <IconPencil size={18} aria-hidden />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('perioperative.duplicate', { name: template.name })}
                              onClick={() =>
                                void perioperativeApi
                                  .duplicate(template.id)
                                  .then((copy) => {
                                    notify('success', t('perioperative.duplicated', { name: copy.name }));
                                    return refresh();
                                  })
                                  .catch((error: unknown) => notify('error', errorText(error)))
                              }
                              data-testid="template-duplicate"
                            >
                              <IconCopy size={18} aria-hidden />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('actions.delete', { name: template.name })}
                              onClick={() => setDeleting(template)}
                            >
                              <IconTrash size={18} aria-hidden />
                            </ActionIcon>
                          </>
                        ) : null}
                      </Group>
                    ),
                  },
                ]}
              />
            )}
          </QueryState>
          {page.data ? (
            <Pager
              totalRecords={page.data.totalRecords}
              pageNumber={pageNumber}
              onPage={setPageNumber}
              ariaLabel={t('page.pages')}
              justify="flex-end"
            />
          ) : null}
        </Stack>
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing === 'new' || editing === null
            ? t('perioperative.addTitle')
            : t('perioperative.editTitle', { name: editing.name })
        }
        size="lg"
      >
        {editing !== null ? (
          <TemplateForm
            key={editing === 'new' ? 'new' : editing.id}
            template={editing === 'new' ? null : editing}
            onSaved={async () => {
              setEditing(null);
              notify('success', t('form.saved'));
              await refresh();
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('delete.title', { name: deleting?.name ?? '' })}
        body={t('delete.body', { name: deleting?.name ?? '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await perioperativeApi.remove(deleting.id);
          notify('success', t('delete.done', { name: deleting.name }));
          setDeleting(null);
          await refresh();
        }}
      />
      <Drawer
        opened={messagesOf !== null}
        onClose={() => setMessagesOf(null)}
        position="right"
        size="xl"
        title={messagesOf ? t('perioperative.messagesTitle', { name: messagesOf.name }) : ''}
      >
        {messagesOf ? <TemplateMessages template={messagesOf} canWrite={canWrite} /> : null}
      </Drawer>
    </>
  );
}
