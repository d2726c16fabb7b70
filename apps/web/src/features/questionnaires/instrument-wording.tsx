import { Badge, Button, Center, FileButton, Group, List, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconFileImport, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstrumentSummary } from '@pathwell/contracts/form-responses';
import { useSession } from '../../app/session-context';
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
  const offsetHours = useSession().instance.timeZoneOffsetHours;
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
            {t('wording.importedOn', { date: formatClinicDate(instrument.importedAt, offsetHours) })}
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

  if (instruments.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="instruments-error">{errorText(instruments.error)}</ErrorAlert>
        <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void instruments.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  }
  if (!instruments.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }

  return (
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
      <Table.ScrollContainer minWidth={720}>
        <Table striped verticalSpacing="xs" aria-label={t('wording.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('wording.form')}</Table.Th>
              <Table.Th scope="col">{t('wording.version')}</Table.Th>
              <Table.Th scope="col">{t('wording.languages')}</Table.Th>
              <Table.Th scope="col">{t('wording.status')}</Table.Th>
              <Table.Th scope="col">{t('wording.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {instruments.data.map((instrument) => {
              const name = outcomeFormName(instrument.formCode, i18n.language);
              const busy = importing.isPending && importing.variables.formCode === instrument.formCode;
              return (
                <Table.Tr key={instrument.formCode} data-testid="instrument-row">
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>{instrument.version}</Table.Td>
                  <Table.Td>{instrument.languages.map(languageName).join(', ')}</Table.Td>
                  <Table.Td>
                    <WordingStatus instrument={instrument} />
                  </Table.Td>
                  <Table.Td>
                    {instrument.wording === 'licensed' ? (
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
                              loading={busy}
                              aria-label={t('wording.importFor', { form: name })}
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
                            aria-label={t('wording.removeFor', { form: name })}
                          >
                            {t('wording.remove')}
                          </Button>
                        ) : null}
                      </Group>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {t('wording.nothingToImport')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
  );
}
