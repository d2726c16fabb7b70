import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { NOTE_MAX_LENGTH, patientNoteInputSchema, type PatientNote } from '@pathwell/contracts/patient-dashboard';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicRelative } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { patientNotesApi, updateCachedNotes } from './patient-dashboard.api';

type Values = z.input<typeof patientNoteInputSchema>;

function NoteForm({
  label,
  initial,
  onSave,
  onCancel,
  testId,
}: {
  label: string;
  initial: string;
  onSave: (body: string) => Promise<unknown>;
  onCancel?: () => void;
  testId: string;
}) {
  const { t } = useTranslation('patientDashboard');
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof patientNoteInputSchema>>({
    resolver: zodResolver(patientNoteInputSchema),
    defaultValues: { body: initial },
  });
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      await onSave(values.body);
      reset({ body: '' });
    } catch (failure) {
      if (!applyServerFieldErrors(failure, setFieldError, ['body'])) setError(errorText(failure));
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={label} data-testid={testId}>
      <Stack gap="xs">
        {error ? <ErrorAlert>{error}</ErrorAlert> : null}
        <Textarea
          label={label}
          minRows={3}
          maxLength={NOTE_MAX_LENGTH}
          error={translateValidation(errors.body?.message)}
          {...register('body')}
        />
        <Group gap="xs" justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('notes.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={isSubmitting} leftSection={onCancel ? undefined : <IconPlus size={16} aria-hidden />}>
            {onCancel ? t('notes.save') : t('notes.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A patient's notes, newest first: anyone who sees the patient adds; the author or an Admin edits and deletes. */
export function PatientNotes({ patientId, notes, timeZone }: { patientId: string; notes: PatientNote[]; timeZone: string }) {
  const { t } = useTranslation('patientDashboard');
  const titleId = useId();
  const queryClient = useQueryClient();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PatientNote | null>(null);

  const remove = useMutation({
    mutationFn: (note: PatientNote) => patientNotesApi.remove(patientId, note.id),
    onSuccess: (_, note) => {
      updateCachedNotes(queryClient, patientId, (current) => current.filter((row) => row.id !== note.id));
      setDeleting(null);
      notify('success', t('notes.deleted'));
    },
  });

  const add = async (body: string) => {
    const created = await patientNotesApi.create(patientId, { body });
    updateCachedNotes(queryClient, patientId, (current) => [created, ...current]);
    notify('success', t('notes.added'));
  };
  const save = async (noteId: string, body: string) => {
    const updated = await patientNotesApi.update(patientId, noteId, { body });
    updateCachedNotes(queryClient, patientId, (current) => current.map((row) => (row.id === noteId ? updated : row)));
    setEditingId(null);
    notify('success', t('notes.saved'));
  };

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="patient-notes">
      <Stack gap="md">
        <Title order={2} size="h4" id={titleId}>
          {t('notes.title')}
        </Title>
        <NoteForm label={t('notes.newNote')} initial="" onSave={add} testId="note-add-form" />
        {notes.length === 0 ? (
          <Text c="dimmed">{t('notes.empty')}</Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {notes.map((note) => (
              <Paper key={note.id} component="li" withBorder radius="md" p="sm" data-testid="patient-note">
                {editingId === note.id ? (
                  <NoteForm
                    label={t('notes.editNote')}
                    initial={note.body}
                    onSave={(body) => save(note.id, body)}
                    onCancel={() => setEditingId(null)}
                    testId="note-edit-form"
                  />
                ) : (
                  <Stack gap={6}>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {note.body}
                    </Text>
                    <Group justify="space-between" gap="xs" wrap="wrap">
                      <Text size="xs" c="dimmed">
                        {`${note.author?.name ?? t('notes.unknownAuthor')} · ${formatClinicRelative(note.createdAt, timeZone)}${
                          note.updatedAt !== note.createdAt ? ` · ${t('notes.edited')}` : ''
                        }`}
                      </Text>
                      {note.canEdit ? (
                        <Group gap={4}>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconPencil size={14} aria-hidden />}
                            onClick={() => setEditingId(note.id)}
                          >
                            {t('notes.edit')}
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            leftSection={<IconTrash size={14} aria-hidden />}
                            onClick={() => setDeleting(note)}
                          >
                            {t('notes.delete')}
                          </Button>
                        </Group>
                      ) : null}
                    </Group>
                  </Stack>
                )}
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
      <Modal
        opened={deleting !== null}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
        title={t('notes.delete')}
        centered
      >
        <Stack gap="md">
          {remove.isError ? <ErrorAlert>{errorText(remove.error)}</ErrorAlert> : null}
          <Text>{t('notes.deleteConfirm')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('notes.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting)}
              data-testid="note-delete-confirm"
            >
              {t('notes.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
