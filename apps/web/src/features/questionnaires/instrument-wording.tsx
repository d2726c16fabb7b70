import { Badge, Button, FileButton, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconFileImport, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstrumentSummary } from '@pathwell/contracts/form-responses';
import { useSession } from '../../app/session-context';
import { DataTable, QueryState } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { languageName, outcomeFormName } from './questionnaire-text';
import { questionnaireApi, questionnaireKeys, questionnaireQueries } from './questionnaires.api';

type ImportProblem = { formCode: number; message: string; fields: [path: string, message: string][] };

/** A file the browser cannot read as JSON never reaches the server. */
class UnreadableFile extends Error {}

async function readJson(file: File): Promise<unknown> {
  try {
    return JSON.parse(await file.text()) as unknown;
  } catch {
    throw new UnreadableFile();
  }
}

function WordingStatus({ instrument }: { instrument: InstrumentSummary }) {
  const { t } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;
  if (instrument.wording === 'shipped')
    return (
      <Badge variant="light" color="teal">
        {t('wording.shipped')}
      </Badge>
    );
  if (instrument.importedForClinic)
    return (
      <Stack gap={2}>
        <Badge variant="light" color="blue">
          {t('wording.imported')}
        </Badge>
        {instrument.importedAt ? (
          <Text size="xs" c="dimmed">
            {t('wording.importedOn', { date: formatClinicDate(instrument.importedAt, timeZone) })}
          </Text>
        ) : null}
      </Stack>
    );
  return (
    <Badge variant="light" color="orange">
      {t('wording.neutral')}
    </Badge>
  );
}

/** /instruments (System Manager): which outcome forms carry licensed wording, and its import. */
export function InstrumentWording() {
  const { t, i18n } = useTranslation('questionnaires');
  const queryClient = useQueryClient();
  const instruments = useQuery(questionnaireQueries.instruments());
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [removing, setRemoving] = useState<InstrumentSummary | null>(null);

  const importing = useMutation({
    mutationFn: async ({ formCode, file }: { formCode: number; file: File }) =>
      questionnaireApi.importWording(formCode, await readJson(file)),
    onMutate: () => setProblem(null),
    onSuccess: (_saved, { formCode }) => {
      notify('success', t('wording.importedToast', { form: outcomeFormName(formCode) }));
      void queryClient.invalidateQueries({ queryKey: questionnaireKeys.instruments });
    },
    onError: (failure, { formCode }) => {
      if (failure instanceof UnreadableFile) {
        setProblem({ formCode, message: t('wording.notJson'), fields: [] });
        return;
      }
      const fields = failure instanceof ApiError ? Object.entries(failure.fields) : [];
      setProblem({
        formCode,
        message: errorText(failure),
        fields: fields.map(([path, key]) => [path, translateValidation(key) ?? key]),
      });
    },
  });

  const removal = useMutation({
    mutationFn: (instrument: InstrumentSummary) => questionnaireApi.removeWording(instrument.formCode),
    onSuccess: (_result, instrument) => {
      notify('success', t('wording.removedToast', { form: outcomeFormName(instrument.formCode) }));
      setRemoving(null);
    },
    onError: (failure) => notify('error', errorText(failure)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionnaireKeys.instruments }),
  });
  const nameOf = (instrument: InstrumentSummary) => outcomeFormName(instrument.formCode, i18n.language);

  return (
    <QueryState query={instruments} errorTestId="instruments-error" retryLabel={t('retry')} retryIcon>
      {(rows) => (
        <Stack gap="md">
          {problem ? (
            <ErrorAlert testId="wording-import-error">
              <Text fw={600} size="sm">
                {t('wording.importFailed', { form: outcomeFormName(problem.formCode) })}
              </Text>
              <Text size="sm">{problem.message}</Text>
              {problem.fields.length > 0 ? (
                <List size="sm" mt={4}>
                  {problem.fields.map(([path, message]) => (
                    <List.Item key={path}>
                      <code>{path}</code>: {message}
                    </List.Item>
                  ))}
                </List>
              ) : null}
            </ErrorAlert>
          ) : null}
          <DataTable
            rows={rows}
            rowKey={(instrument) => instrument.formCode}
            rowTestId="instrument-row"
            ariaLabel={t('wording.table')}
            minWidth={720}
            highlightOnHover={false}
            verticalSpacing="xs"
            columns={[
              { key: 'form', header: t('wording.form'), cell: (instrument) => nameOf(instrument) },
              { key: 'version', header: t('wording.version'), cell: (instrument) => instrument.version },
              {
                key: 'languages',
                header: t('wording.languages'),
                cell: (instrument) => instrument.languages.map(languageName).join(', '),
              },
              { key: 'status', header: t('wording.status'), cell: (instrument) => <WordingStatus instrument={instrument} /> },
              {
                key: 'actions',
                header: t('wording.actions'),
                cell: (instrument) =>
                  instrument.wording === 'licensed' ? (
                    <Group gap={6} wrap="nowrap">
                      <FileButton
                        accept="application/json,.json"
                        onChange={(file) => {
                          if (file) importing.mutate({ formCode: instrument.formCode, file });
                        }}
                      >
                        {(props) => (
                          <Button
                            {...props}
                            size="xs"
                            variant="light"
                            leftSection={<IconFileImport size={14} aria-hidden />}
                            loading={importing.isPending && importing.variables.formCode === instrument.formCode}
                            aria-label={t('wording.importFor', { form: nameOf(instrument) })}
                          >
                            {t('wording.import')}
                          </Button>
                        )}
                      </FileButton>
                      {instrument.importedForClinic ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          leftSection={<IconTrash size={14} aria-hidden />}
                          onClick={() => setRemoving(instrument)}
                          aria-label={t('wording.removeFor', { form: nameOf(instrument) })}
                        >
                          {t('wording.remove')}
                        </Button>
                      ) : null}
                    </Group>
                  ) : (
                    <Text size="xs" c="dimmed">
                      {t('wording.nothingToImport')}
                    </Text>
                  ),
              },
            ]}
          />
          <Text size="sm" c="dimmed">
            {t('wording.help')}
          </Text>
          <Modal opened={removing !== null} onClose={() => setRemoving(null)} title={t('wording.removeTitle')}>
            {removing ? (
              <Stack gap="md">
                <Text>{t('wording.removeConfirm', { form: outcomeFormName(removing.formCode) })}</Text>
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setRemoving(null)}>
                    {t('send.cancel')}
                  </Button>
                  <Button color="red" loading={removal.isPending} onClick={() => removal.mutate(removing)}>
                    {t('wording.remove')}
                  </Button>
                </Group>
              </Stack>
            ) : null}
          </Modal>
        </Stack>
      )}
    </QueryState>
  );
}
