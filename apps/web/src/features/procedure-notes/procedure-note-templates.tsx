import { zodResolver } from '@hookform/resolvers/zod';
import {
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ADMIN_GROUP_MENU_PATH, findManagedList } from '@pathwell/contracts/managed-lists';
import {
  procedureNoteKinds,
  procedureNotePlaceholders,
  PROVIDER_FILL_IN,
  procedureNoteTemplateInputSchema,
  type ProcedureNoteKind,
  type ProcedureNoteTemplate,
  type ProcedureNoteTemplateInput,
} from '@pathwell/contracts/procedure-notes';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { TemplateActiveSwitch, TemplateEditorForm, TemplateRowActions } from '../../components/template-editor';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { managedListQueries } from '../managed-lists/managed-lists.api';
import { ConfirmDeleteModal, useCanWrite } from '../managed-lists/managed-list-shared';
import { procedureNoteApi, procedureNoteKeys, procedureNoteQueries } from './procedure-notes.api';

type Values = { name: string; kind: ProcedureNoteKind; itemId: string | null; body: string; isActive: boolean };

const itemLists = {
  procedure: findManagedList('interventionalitems:1')!,
  injection: findManagedList('interventionalitems:2')!,
};

function ItemSelect({
  kind,
  value,
  onChange,
  error,
}: {
  kind: ProcedureNoteKind;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
}) {
  const { t } = useTranslation('procedureNotes');
  const list = kind === 'pump' ? null : itemLists[kind];
  const options = useQuery({ ...managedListQueries.options(list ?? itemLists.procedure), enabled: list !== null });
  return (
    <Select
      label={t('templates.item')}
      description={t('templates.itemHelp')}
      placeholder={t('templates.allItems')}
      clearable
      searchable
      disabled={list === null}
      data={(options.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
      value={value}
      onChange={onChange}
      error={error}
      data-testid="template-item"
    />
  );
}

function TemplateForm({ template, onDone }: { template: ProcedureNoteTemplate | null; onDone: (saved: boolean) => void }) {
  const { t, i18n } = useTranslation('procedureNotes');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    getValues,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(procedureNoteTemplateInputSchema) as unknown as Resolver<Values>,
    defaultValues: {
      name: template?.name ?? '',
      kind: template?.kind ?? 'injection',
      itemId: template?.itemId ?? null,
      body: template?.body ?? '',
      isActive: template?.isActive ?? true,
    },
  });
  const kind = watch('kind');
  const bodyField = register('body');

  const insert = (name: string) => {
    const token = `{{${name}}}`;
    const area = bodyRef.current;
    const body = getValues('body');
    const start = area?.selectionStart ?? body.length;
    const end = area?.selectionEnd ?? body.length;
    setValue('body', body.slice(0, start) + token + body.slice(end), { shouldDirty: true });
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const submit = handleSubmit(async (values) => {
    setError(null);
    const input: ProcedureNoteTemplateInput = { ...values, itemId: values.kind === 'pump' ? null : values.itemId };
    try {
      if (template) await procedureNoteApi.updateTemplate(template.id, input);
      else await procedureNoteApi.createTemplate(input);
      await queryClient.invalidateQueries({ queryKey: procedureNoteKeys.templates });
      notify('success', t('templates.saved'));
      onDone(true);
    } catch (failure) {
      if (!applyServerFieldErrors<Values>(failure, setFieldError, ['name', 'kind', 'itemId', 'body', 'isActive'])) {
        setError(errorText(failure));
      }
    }
  });

  return (
    <TemplateEditorForm
      testId="procedure-template-form"
      error={error}
      onSubmit={submit}
      onCancel={() => onDone(false)}
      cancelLabel={t('templates.cancel')}
      saveLabel={t('templates.save')}
      saveTestId="template-save"
      isSubmitting={isSubmitting}
    >
      <TextInput
        label={t('templates.name')}
        required
        data-autofocus
        maxLength={200}
        error={translateValidation(errors.name?.message)}
        data-testid="template-name"
        {...register('name')}
      />
      <Group grow align="flex-start">
        <Controller
          control={control}
          name="kind"
          render={({ field }) => (
            <Select
              label={t('templates.kind')}
              required
              allowDeselect={false}
              data={procedureNoteKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                setValue('itemId', null);
              }}
              error={translateValidation(errors.kind?.message)}
              data-testid="template-kind"
            />
          )}
        />
        <Controller
          control={control}
          name="itemId"
          render={({ field }) => (
            <ItemSelect
              kind={kind}
              value={field.value}
              onChange={field.onChange}
              error={translateValidation(errors.itemId?.message)}
            />
          )}
        />
      </Group>
      <Textarea
        label={t('templates.body')}
        required
        rows={12}
        resize="vertical"
        error={translateValidation(errors.body?.message)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 14 } }}
        data-testid="template-body"
        {...bodyField}
        ref={(element) => {
          bodyField.ref(element);
          bodyRef.current = element;
        }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="placeholder-label">
          {t('templates.placeholders')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('templates.placeholdersHelp')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('templates.fillInHelp', { marker: PROVIDER_FILL_IN })}
        </Text>
        <Group gap={6} role="group" aria-labelledby="placeholder-label" data-testid="template-placeholders">
          {procedureNotePlaceholders.map((placeholder) => (
            <Tooltip key={placeholder.name} label={i18n.language.startsWith('es') ? placeholder.es : placeholder.en}>
              <Button size="compact-xs" variant="light" onClick={() => insert(placeholder.name)}>
                {`{{${placeholder.name}}}`}
              </Button>
            </Tooltip>
          ))}
        </Group>
      </Stack>
      <TemplateActiveSwitch control={control} label={t('templates.active')} />
    </TemplateEditorForm>
  );
}

/** /admin/procedurenotetemplates: the clinic's procedure note templates (the Admin group writes; decision 0040). */
export function ProcedureNoteTemplatesPage() {
  const { t } = useTranslation('procedureNotes');
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(ADMIN_GROUP_MENU_PATH);
  const templates = useQuery(procedureNoteQueries.templates());
  const [editing, setEditing] = useState<ProcedureNoteTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ProcedureNoteTemplate | null>(null);

  return (
    <>
      <PageHeader
        title={t('templates.title')}
        description={t('templates.description')}
        actions={
          canWrite ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="template-add">
              {t('templates.add')}
            </Button>
          ) : undefined
        }
      />
      {canWrite ? null : (
        <Text c="dimmed" size="sm" mb="sm">
          {t('templates.readOnly')}
        </Text>
      )}
      {templates.isError ? (
        <ErrorAlert>{`${t('templates.loadFailed')}: ${errorText(templates.error)}`}</ErrorAlert>
      ) : !templates.data ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : templates.data.length === 0 ? (
        <Text c="dimmed" data-testid="templates-empty">
          {t('templates.none')}
        </Text>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover data-testid="procedure-templates-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('templates.columns.name')}</Table.Th>
                  <Table.Th>{t('templates.columns.kind')}</Table.Th>
                  <Table.Th>{t('templates.columns.item')}</Table.Th>
                  <Table.Th>{t('templates.columns.status')}</Table.Th>
                  {canWrite ? <Table.Th>{t('templates.columns.actions')}</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {templates.data.map((template) => (
                  <Table.Tr key={template.id}>
                    <Table.Td>{template.name}</Table.Td>
                    <Table.Td>{t(`kinds.${template.kind}`)}</Table.Td>
                    <Table.Td>{template.itemName ?? t('templates.allItems')}</Table.Td>
                    <Table.Td>
                      <Badge color={template.isActive ? 'green' : 'gray'} variant="light">
                        {template.isActive ? t('templates.active') : t('templates.inactive')}
                      </Badge>
                    </Table.Td>
                    {canWrite ? (
                      <Table.Td>
                        <TemplateRowActions
                          editLabel={t('templates.edit', { name: template.name })}
                          deleteLabel={t('templates.delete', { name: template.name })}
                          onEdit={() => setEditing(template)}
                          onDelete={() => setDeleting(template)}
                          iconSize={16}
                        />
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('templates.createTitle') : t('templates.editTitle')}
        size="xl"
      >
        {editing !== null ? (
          <TemplateForm
            key={editing === 'new' ? 'new' : editing.id}
            template={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('templates.deleteTitle')}
        body={t('templates.deleteBody', { name: deleting?.name ?? '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await procedureNoteApi.removeTemplate(deleting.id);
          await queryClient.invalidateQueries({ queryKey: procedureNoteKeys.templates });
          notify('success', t('templates.deleted'));
          setDeleting(null);
        }}
      />
    </>
  );
}
