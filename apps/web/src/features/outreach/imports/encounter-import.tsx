import { Badge, Button, FileInput, Group, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileUpload, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ENCOUNTER_IMPORT_MAX_BYTES,
  encounterFields,
  encounterMappingSchema,
  type EncounterField,
  type EncounterImportStatus,
  type EncounterImportSummary,
  type EncounterMappingInput,
  type EncounterPreview,
} from '@pathwell/contracts/encounter-imports';
import { useSession } from '../../../app/session-context';
import { DataTable, QueryState } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { serverMessageText, translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { importApi, importKeys, importQueries } from './imports.api';

const statusColor: Record<EncounterImportStatus, string> = { queued: 'gray', running: 'blue', done: 'green', failed: 'red' };
const MAX_MEGABYTES = Math.round(ENCOUNTER_IMPORT_MAX_BYTES / 1024 / 1024);

/** A row error's or failure's message key in the user's language (validation or server message). */
const messageOf = (key: string) => serverMessageText({ error: key, messageKey: key }) ?? key;

function StatusBadge({ status }: { status: EncounterImportStatus }) {
  const { t } = useTranslation('outreachImports');
  return (
    <Badge color={statusColor[status]} variant="light" data-testid="import-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The file's columns, one Select per field, and its first rows. */
function MappingStep({
  preview,
  file,
  onStarted,
  onCancel,
}: {
  preview: EncounterPreview;
  file: File;
  onStarted: (importId: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('outreachImports');
  const [mapping, setMapping] = useState<EncounterMappingInput>(preview.suggestedMapping as EncounterMappingInput);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const start = useMutation({
    mutationFn: (chosen: EncounterMappingInput) => importApi.start(file, chosen),
    onSuccess: ({ id }) => onStarted(id),
    onError: (error) => {
      if (error instanceof ApiError) {
        setErrors(Object.fromEntries(Object.entries(error.fields).map(([field, key]) => [field.replace(/^mapping\./, ''), key])));
      }
    },
  });
  const submit = () => {
    const parsed = encounterMappingSchema.safeParse(mapping);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    start.mutate(mapping);
  };
  const options = preview.headers.map((header) => ({ value: header, label: header }));

  return (
    <Stack gap="md" data-testid="import-mapping">
      <Text>{t('mapping.summary', { file: preview.fileName, count: preview.rowCount })}</Text>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('mapping.title')}
          </Title>
          <Text size="sm">{t('mapping.hint')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {encounterFields.map((field) => (
              <Select
                key={field}
                label={t(`fields.${field}`)}
                description={t(`fieldHints.${field}`)}
                placeholder={t('mapping.none')}
                data={options}
                value={mapping[field] ?? null}
                onChange={(value) => setMapping((current) => ({ ...current, [field]: value }))}
                clearable
                searchable
                error={translateValidation(errors[field])}
                comboboxProps={{ withinPortal: true }}
                data-testid={`mapping-${field}`}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Paper>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('mapping.sampleTitle', { count: preview.sampleRows.length })}
        </Title>
        <Table.ScrollContainer minWidth={Math.max(640, preview.headers.length * 140)}>
          <Table striped aria-label={t('mapping.sampleTitle', { count: preview.sampleRows.length })} data-testid="import-sample">
            <Table.Thead>
              <Table.Tr>
                {preview.headers.map((header) => (
                  <Table.Th key={header} scope="col">
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.sampleRows.map((row, index) => (
                <Table.Tr key={index}>
                  {row.map((cell, column) => (
                    <Table.Td key={column}>{cell}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      {start.isError && Object.keys(errors).length === 0 ? (
        <ErrorAlert testId="import-start-error">{errorText(start.error)}</ErrorAlert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('mapping.otherFile')}
        </Button>
        <Button
          leftSection={<IconPlayerPlay size={16} aria-hidden />}
          loading={start.isPending}
          onClick={submit}
          data-testid="import-start"
        >
          {t('mapping.start', { count: preview.rowCount })}
        </Button>
      </Group>
    </Stack>
  );
}

/** One import's progress (read again while its job runs), counts and row errors. */
function ImportProgress({ importId }: { importId: string }) {
  const { t } = useTranslation('outreachImports');
  const queryClient = useQueryClient();
  const detail = useQuery(importQueries.one(importId));
  const status = detail.data?.status;
  useEffect(() => {
    if (status === 'done' || status === 'failed') void queryClient.invalidateQueries({ queryKey: importKeys.log() });
  }, [status, queryClient]);

  return (
    <QueryState query={detail} retryLabel={t('retry')} errorPrefix={t('progress.loadFailed')} errorTestId="import-progress-error">
      {(item) => {
        const percent = item.totalRows > 0 ? Math.round((item.processedRows / item.totalRows) * 100) : 0;
        return (
          <Paper withBorder p="md" data-testid="import-progress">
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap">
                <Title order={2} size="h4">
                  {item.fileName}
                </Title>
                <StatusBadge status={item.status} />
              </Group>
              <Progress
                value={item.status === 'done' ? 100 : percent}
                size="lg"
                animated={item.status === 'running' || item.status === 'queued'}
                aria-label={t('progress.label')}
                data-testid="import-progress-bar"
              />
              <Text size="sm" aria-live="polite" data-testid="import-progress-text">
                {t('progress.rows', { done: item.processedRows, total: item.totalRows })}
              </Text>
              <Group gap="lg" data-testid="import-counts">
                <Text size="sm">{t('progress.imported', { count: item.importedRows })}</Text>
                <Text size="sm">{t('progress.duplicates', { count: item.duplicateRows })}</Text>
                <Text size="sm">{t('progress.errors', { count: item.errorRows })}</Text>
              </Group>
              {item.failure ? (
                <ErrorAlert testId="import-failure">{t('progress.failed', { reason: messageOf(item.failure) })}</ErrorAlert>
              ) : null}
              {item.errors.length > 0 ? (
                <Stack gap="xs">
                  <Title order={3} size="h5">
                    {item.errorRows > item.errors.length
                      ? t('progress.errorsFirst', { shown: item.errors.length, count: item.errorRows })
                      : t('progress.errorsTitle')}
                  </Title>
                  <DataTable
                    rows={item.errors}
                    rowKey={(row) => `${row.row}-${row.field}`}
                    rowTestId="import-error-row"
                    minWidth={560}
                    ariaLabel={t('progress.errorsTitle')}
                    verticalSpacing="xs"
                    columns={[
                      { key: 'row', header: t('progress.row'), cell: (row) => row.row },
                      {
                        key: 'field',
                        header: t('progress.field'),
                        cell: (row) =>
                          (encounterFields as readonly string[]).includes(row.field)
                            ? t(`fields.${row.field as EncounterField}`)
                            : row.field,
                      },
                      { key: 'message', header: t('progress.problem'), cell: (row) => messageOf(row.message) },
                    ]}
                  />
                </Stack>
              ) : null}
            </Stack>
          </Paper>
        );
      }}
    </QueryState>
  );
}

/** The import log, newest first; a row opens its progress and errors above. */
function ImportLog({ onOpen }: { onOpen: (importId: string) => void }) {
  const { t } = useTranslation('outreachImports');
  const timeZone = useSession().instance.timeZoneId;
  const log = useQuery(importQueries.log());
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('log.title')}
      </Title>
      <QueryState query={log} retryLabel={t('retry')} errorPrefix={t('log.loadFailed')} errorTestId="import-log-error">
        {(rows) => (
          <DataTable<EncounterImportSummary>
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId="import-log-row"
            minWidth={860}
            ariaLabel={t('log.title')}
            emptyText={t('log.empty')}
            emptyTestId="import-log-empty"
            columns={[
              {
                key: 'file',
                header: t('log.file'),
                cell: (row) => (
                  <Stack gap={0}>
                    <Text fw={600} size="sm">
                      {row.fileName}
                    </Text>
                    <Text size="sm">
                      {formatClinicDateTime(row.createdAt, timeZone)}
                      {row.createdByName ? ` · ${row.createdByName}` : ''}
                    </Text>
                  </Stack>
                ),
              },
              { key: 'status', header: t('log.status'), cell: (row) => <StatusBadge status={row.status} /> },
              { key: 'rows', header: t('log.rows'), cell: (row) => row.totalRows.toLocaleString() },
              { key: 'imported', header: t('log.imported'), cell: (row) => row.importedRows.toLocaleString() },
              { key: 'duplicates', header: t('log.duplicates'), cell: (row) => row.duplicateRows.toLocaleString() },
              { key: 'errors', header: t('log.errors'), cell: (row) => row.errorRows.toLocaleString() },
              {
                key: 'open',
                headerLabel: t('actions'),
                cell: (row) => (
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={() => onOpen(row.id)}
                    aria-label={t('log.openNamed', { name: row.fileName })}
                  >
                    {t('log.open')}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </Stack>
  );
}

/**
 * The encounter CSV import (issue #15 §1): choose a file, check the suggested column for each field
 * against the first rows, start the import, and follow it to the end; below, the log of imports.
 */
export function EncounterImport() {
  const { t } = useTranslation('outreachImports');
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<EncounterPreview | null>(null);
  const [shownImport, setShownImport] = useState<string | null>(null);
  const read = useMutation({
    mutationFn: (chosen: File) => importApi.preview(chosen),
    onSuccess: (result) => setPreview(result),
  });
  const choose = (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    read.reset();
    if (!chosen) return;
    setShownImport(null);
    read.mutate(chosen);
  };
  const reset = () => {
    setFile(null);
    setPreview(null);
    read.reset();
  };

  return (
    <Stack gap="lg" data-testid="encounter-import">
      <Text>{t('intro')}</Text>
      {preview && file ? (
        <MappingStep
          preview={preview}
          file={file}
          onCancel={reset}
          onStarted={(importId) => {
            notify('success', t('started', { file: preview.fileName }));
            reset();
            setShownImport(importId);
            void queryClient.invalidateQueries({ queryKey: importKeys.log() });
          }}
        />
      ) : (
        <Stack gap="xs">
          <FileInput
            label={t('upload.label')}
            description={t('upload.hint', { megabytes: MAX_MEGABYTES })}
            placeholder={t('upload.placeholder')}
            accept=".csv,text/csv,text/plain"
            value={file}
            onChange={choose}
            leftSection={<IconFileUpload size={16} aria-hidden />}
            clearable
            disabled={read.isPending}
            data-testid="import-file"
          />
          {read.isPending ? <Text size="sm">{t('upload.reading')}</Text> : null}
          {read.isError ? <ErrorAlert testId="import-read-error">{errorText(read.error)}</ErrorAlert> : null}
        </Stack>
      )}
      {shownImport ? <ImportProgress importId={shownImport} /> : null}
      <ImportLog onOpen={setShownImport} />
    </Stack>
  );
}
