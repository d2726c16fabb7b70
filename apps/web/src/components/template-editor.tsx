import { ActionIcon, Button, Group, Stack, Switch } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { ErrorAlert } from './error-alert';

/**
 * The frame of a template editor (perioperative messages, procedure notes): a form that leaves checking
 * to its schema, the server's refusal above the fields, then Cancel and Save. Fields are the editor's own.
 */
export function TemplateEditorForm({
  testId,
  error,
  onSubmit,
  onCancel,
  cancelLabel,
  saveLabel,
  saveTestId,
  isSubmitting,
  children,
}: {
  testId: string;
  /** A failure no field can show. */
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  onCancel: () => void;
  cancelLabel: string;
  saveLabel: string;
  saveTestId: string;
  isSubmitting: boolean;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid={testId}>
      <Stack gap="md">
        {error ? <ErrorAlert>{error}</ErrorAlert> : null}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button type="submit" loading={isSubmitting} data-testid={saveTestId}>
            {saveLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The template's active switch, drawn alike in both editors. */
export function TemplateActiveSwitch<Values extends FieldValues & { isActive: boolean }>({
  control,
  label,
}: {
  control: Control<Values>;
  label: string;
}) {
  return (
    <Controller
      control={control}
      name={'isActive' as Path<Values>}
      render={({ field }) => (
        <Switch
          label={label}
          checked={field.value as boolean}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          ref={field.ref}
        />
      )}
    />
  );
}

/** Edit and delete buttons of one template (or one of its messages) in a list row; the labels name it. */
export function TemplateRowActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
  iconSize,
}: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  iconSize: number;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="subtle" aria-label={editLabel} onClick={onEdit}>
        <IconPencil size={iconSize} aria-hidden />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={deleteLabel} onClick={onDelete}>
        <IconTrash size={iconSize} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
