import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconFileTypePdf, IconPencilPlus, IconRefresh, IconSignature } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { unfilledPlaceholders, type ProcedureNote, type ProcedureNoteStatus } from '@pathwell/contracts/procedure-notes';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { formatClinicDate, formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { openProcedureNotePdf, procedureNoteApi, procedureNoteKeys } from './procedure-notes.api';

const statusColor: Record<ProcedureNoteStatus, string> = { draft: 'orange', signed: 'green', superseded: 'gray' };

export function ProcedureNoteStatusBadge({ status }: { status: ProcedureNoteStatus }) {
  const { t } = useTranslation('procedureNotes');
  return (
    <Badge color={statusColor[status]} variant="light" style={{ flexShrink: 0 }}>
      {t(`status.${status}`)}
    </Badge>
  );
}

const isoDay = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
};
export const performedOnText = isoDay;

/**
 * /patients/procedurenoteform/:id/:patientid/:providerId/:type — `id` is the intervention. Opens the
 * latest version of its note (a new draft filled from the clinic's template the first time): drafts are
 * edited and signed here; a signed version is read-only, printable, and amended as a new version.
 */
export function ProcedureNoteEditor({
  interventionId,
  patientId,
  timeZone,
}: {
  interventionId: string;
  patientId: string;
  timeZone: string;
}) {
  const { t } = useTranslation('procedureNotes');
  const queryClient = useQueryClient();
  const opened = useQuery({
    queryKey: [...procedureNoteKeys.all, 'open', interventionId],
    queryFn: () => procedureNoteApi.open(interventionId),
    retry: false,
  });
  const [shown, setShown] = useState<ProcedureNote | null>(null);
  useEffect(() => {
    if (opened.data) setShown(opened.data);
  }, [opened.data]);

  const showVersion = useMutation({
    mutationFn: (id: string) =>
      queryClient.fetchQuery({ queryKey: procedureNoteKeys.note(id), queryFn: () => procedureNoteApi.get(id), staleTime: 0 }),
    onSuccess: setShown,
    onError: (failure) => notify('error', errorText(failure)),
  });

  const changed = (note: ProcedureNote) => {
    setShown(note);
    queryClient.setQueryData([...procedureNoteKeys.all, 'open', interventionId], note);
    void queryClient.invalidateQueries({ queryKey: procedureNoteKeys.patient(patientId) });
    void queryClient.invalidateQueries({ queryKey: procedureNoteKeys.todo });
  };

  const back = (
    <Anchor component={Link} to={`/patients/patientdashboard/${patientId}`} size="sm">
      {t('editor.back')}
    </Anchor>
  );

  if (opened.isError) {
    const off = opened.error instanceof ApiError && opened.error.status === 403;
    return (
      <>
        <PageHeader title={t('editor.title')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="procedure-note-error">
            {off ? t('editor.featureOff') : `${t('editor.loadFailed')}: ${errorText(opened.error)}`}
          </ErrorAlert>
          {off ? null : (
            <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void opened.refetch()}>
              {t('editor.retry')}
            </Button>
          )}
          {back}
        </Stack>
      </>
    );
  }
  if (!shown) {
    return (
      <>
        <PageHeader title={t('editor.title')} />
        <Center py="xl">
          <Loader aria-label={t('editor.loading')} />
        </Center>
      </>
    );
  }

  const procedure = shown.procedure ?? t('untitled');
  return (
    <>
      <PageHeader title={`${t('editor.title')}: ${procedure}`} description={shown.patientName} />
      <Stack gap="md">
        {back}
        <Group align="flex-start" gap="md" wrap="wrap">
          <Stack gap="md" style={{ flex: '1 1 560px', minWidth: 0 }}>
            <Paper withBorder p="md">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap">
                  <Title order={2} size="h4">
                    {t('editor.version', { version: shown.version })}
                  </Title>
                  <ProcedureNoteStatusBadge status={shown.status} />
                </Group>
                <Text size="sm" c="dimmed">
                  {t('editor.meta', {
                    kind: t(`kinds.${shown.kind}`),
                    date: isoDay(shown.performedOn),
                    provider: shown.providerName ?? t('todo.noProvider'),
                  })}
                </Text>
                <Text size="sm" c="dimmed" data-testid="procedure-note-template">
                  {shown.templateName ? t('editor.template', { name: shown.templateName }) : t('editor.defaultTemplate')}
                </Text>
              </Stack>
            </Paper>
            {shown.status === 'draft' ? (
              <DraftEditor key={shown.id} note={shown} onChanged={changed} />
            ) : (
              <SignedView
                key={shown.id}
                note={shown}
                timeZone={timeZone}
                onChanged={changed}
                latestId={opened.data?.id ?? shown.id}
                onShow={(id) => showVersion.mutate(id)}
              />
            )}
          </Stack>
          <Paper withBorder p="md" style={{ flex: '0 1 260px' }}>
            <Stack gap="xs" data-testid="procedure-note-versions">
              <Title order={2} size="h5">
                {t('editor.versions')}
              </Title>
              {shown.versions.map((version) => (
                <UnstyledButton
                  key={version.id}
                  onClick={() => showVersion.mutate(version.id)}
                  aria-current={version.id === shown.id ? 'true' : undefined}
                  style={{
                    borderRadius: 4,
                    padding: 4,
                    outlineOffset: 2,
                    background: version.id === shown.id ? 'var(--mantine-color-gray-1)' : undefined,
                  }}
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Stack gap={0}>
                      <Text size="sm" fw={version.id === shown.id ? 700 : 500}>
                        {t('editor.version', { version: version.version })}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('editor.versionDate', { date: formatClinicDate(version.signedAt ?? version.updatedAt, timeZone) })}
                      </Text>
                    </Stack>
                    <ProcedureNoteStatusBadge status={version.status} />
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          </Paper>
        </Group>
      </Stack>
    </>
  );
}

function DraftEditor({ note, onChanged }: { note: ProcedureNote; onChanged: (note: ProcedureNote) => void }) {
  const { t } = useTranslation('procedureNotes');
  const [body, setBody] = useState(note.body);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const dirty = body !== note.body;
  const unfilled = unfilledPlaceholders(body);

  const failed = (failure: unknown) => {
    const field = failure instanceof ApiError ? failure.fields.body : undefined;
    // The server's message names what is left to write ("Indication, Description"); the key alone does not.
    if (field) setFieldError((failure as ApiError).serverMessage ?? translateValidation(field) ?? field);
    else setProblem(errorText(failure));
  };
  const save = useMutation({
    mutationFn: () => procedureNoteApi.save(note.id, body),
    onMutate: () => {
      setFieldError(null);
      setProblem(null);
    },
    onSuccess: (saved) => {
      notify('success', t('editor.saved'));
      onChanged(saved);
    },
    onError: failed,
  });
  const sign = useMutation({
    mutationFn: async () => {
      if (dirty) await procedureNoteApi.save(note.id, body);
      return procedureNoteApi.sign(note.id);
    },
    onMutate: () => {
      setFieldError(null);
      setProblem(null);
    },
    onSuccess: (signed) => {
      setConfirming(false);
      notify('success', t('editor.signed'));
      onChanged(signed);
    },
    onError: (failure) => {
      setConfirming(false);
      failed(failure);
    },
  });

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
        <Textarea
          label={t('editor.body')}
          value={body}
          onChange={(event) => setBody(event.currentTarget.value)}
          rows={18}
          resize="vertical"
          error={fieldError}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 14 } }}
          data-testid="procedure-note-body"
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {dirty ? t('editor.unsaved') : ''}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={() => save.mutate()} loading={save.isPending} disabled={!dirty || sign.isPending}>
              {t('editor.save')}
            </Button>
            {note.canSign ? (
              <Button
                leftSection={<IconSignature size={16} aria-hidden />}
                onClick={() => setConfirming(true)}
                disabled={save.isPending}
              >
                {t('editor.sign')}
              </Button>
            ) : null}
          </Group>
        </Group>
        {unfilled.length > 0 ? (
          <Text size="sm" c="orange.9" data-testid="procedure-note-unfilled">
            {t('editor.unfilled', { names: unfilled.join(', ') })}
          </Text>
        ) : null}
        {note.canSign ? null : (
          <Text size="sm" c="dimmed" data-testid="procedure-note-cannot-sign">
            {t('editor.cannotSign')}
          </Text>
        )}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('editor.signTitle')}>
        <Stack gap="md">
          <Text size="sm">{t('editor.signText')}</Text>
          {dirty ? <Text size="sm">{t('editor.signSaveFirst')}</Text> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('editor.cancel')}
            </Button>
            <Button
              leftSection={<IconSignature size={16} aria-hidden />}
              loading={sign.isPending}
              onClick={() => sign.mutate()}
              data-autofocus
            >
              {t('editor.sign')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function SignedView({
  note,
  timeZone,
  latestId,
  onChanged,
  onShow,
}: {
  note: ProcedureNote;
  timeZone: string;
  latestId: string;
  onChanged: (note: ProcedureNote) => void;
  onShow: (id: string) => void;
}) {
  const { t } = useTranslation('procedureNotes');
  const amend = useMutation({
    mutationFn: () => procedureNoteApi.amend(note.id),
    onSuccess: (draft) => {
      notify('success', t('editor.amended', { version: draft.version }));
      onChanged(draft);
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        {note.status === 'superseded' ? (
          <Alert color="gray" variant="light" data-testid="procedure-note-superseded">
            <Group justify="space-between">
              <Text size="sm">{t('editor.superseded')}</Text>
              {latestId !== note.id ? (
                <Button size="compact-sm" variant="subtle" onClick={() => onShow(latestId)}>
                  {t('editor.openLatest')}
                </Button>
              ) : null}
            </Group>
          </Alert>
        ) : null}
        <Text
          component="div"
          data-testid="procedure-note-signed-body"
          style={{
            whiteSpace: 'pre-wrap',
            fontFamily: 'var(--mantine-font-family-monospace)',
            fontSize: 14,
            overflowWrap: 'anywhere',
          }}
        >
          {note.body}
        </Text>
        {note.signedAt ? (
          <Text size="sm" fs="italic">
            {t('editor.signedBy', { name: note.signedByName ?? '', date: formatClinicDateTime(note.signedAt, timeZone) })}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
            onClick={() => void openProcedureNotePdf(note.id)}
          >
            {t('editor.pdf')}
          </Button>
          {note.status === 'signed' ? (
            <Button
              leftSection={<IconPencilPlus size={16} aria-hidden />}
              loading={amend.isPending}
              onClick={() => amend.mutate()}
            >
              {t('editor.amend')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
