import { Anchor, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProcedureNoteSummary } from '@pathwell/contracts/procedure-notes';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { performedOnText, ProcedureNoteStatusBadge } from './procedure-note-editor';
import { procedureNotePath, procedureNoteQueries } from './procedure-notes.api';

/** Not this user's to see (a role without access, or the patient page's own 404): the card stays out of the way. */
const unavailable = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

function NoteLink({ note, label, testId }: { note: ProcedureNoteSummary; label: string; testId: string }) {
  const { t } = useTranslation('procedureNotes');
  const procedure = note.procedure ?? t('untitled');
  return (
    <Anchor component={Link} to={procedureNotePath(note)} fw={600} size="sm" data-testid={testId} aria-label={label}>
      {procedure}
    </Anchor>
  );
}

/** The patient dashboard's procedure notes: the latest version of each intervention's note. Hidden when the clinic does not use them. */
export function ProcedureNotesCard({ patientId }: { patientId: string }) {
  const { t } = useTranslation('procedureNotes');
  const notes = useQuery(procedureNoteQueries.patient(patientId));
  if ((notes.data && !notes.data.enabled) || unavailable(notes.error)) return null;
  return (
    <Paper withBorder p="md" data-testid="procedure-notes-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('card.title')}
        </Title>
        {notes.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {notes.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
        {notes.data && notes.data.data.length === 0 ? <Text c="dimmed">{t('card.none')}</Text> : null}
        {notes.data?.data.map((note) => {
          const date = performedOnText(note.performedOn);
          return (
            <Group key={note.id} justify="space-between" wrap="nowrap" data-testid="procedure-note-row">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <NoteLink
                  note={note}
                  testId={`procedure-note-${note.interventionId}`}
                  label={t('card.open', { procedure: note.procedure ?? t('untitled'), date })}
                />
                <Text size="xs" c="dimmed">
                  {t(`kinds.${note.kind}`)} · {t('card.line', { date, version: note.version })}
                </Text>
              </Stack>
              <ProcedureNoteStatusBadge status={note.status} />
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** The staff dashboard's to-do: unsigned drafts (a Doctor's own; the clinic's for Admin and Staff). */
export function ProcedureNotesTodo() {
  const { t } = useTranslation('procedureNotes');
  const todo = useQuery(procedureNoteQueries.todo());
  if ((todo.data && !todo.data.enabled) || unavailable(todo.error)) return null;
  return (
    <Paper withBorder p="md" mb="md" data-testid="procedure-notes-todo">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('todo.title')}
          {todo.data && todo.data.data.length > 0 ? ` (${todo.data.data.length})` : ''}
        </Title>
        {todo.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {todo.isError ? <ErrorAlert>{t('todo.loadFailed')}</ErrorAlert> : null}
        {todo.data && todo.data.data.length === 0 ? <Text c="dimmed">{t('todo.none')}</Text> : null}
        {todo.data?.data.map((note) => {
          const date = performedOnText(note.performedOn);
          return (
            <Group key={note.id} justify="space-between" wrap="nowrap" data-testid="procedure-note-todo-row">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <NoteLink
                  note={note}
                  testId={`procedure-note-todo-${note.interventionId}`}
                  label={t('todo.open', { patient: note.patientName, procedure: note.procedure ?? t('untitled'), date })}
                />
                <Text size="xs" c="dimmed">
                  {t('todo.line', { patient: note.patientName, date, provider: note.providerName ?? t('todo.noProvider') })}
                </Text>
              </Stack>
              <ProcedureNoteStatusBadge status={note.status} />
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
