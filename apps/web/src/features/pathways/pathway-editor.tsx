import {
  ActionIcon,
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  pathwayInputSchema,
  pathwayStepKinds,
  pathwayTriggers,
  type Pathway,
  type PathwayInput,
  type PathwayStepKind,
  type PathwayTrigger,
} from '@pathwell/contracts/pathways';
import { formCodes, instruments } from '@pathwell/instruments';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { pathwayApi, pathwayKeys, pathwayQueries } from './pathways.api';
import { useFormAvailability } from '../questionnaires/form-availability';

type StepValues = {
  dayOffset: number | string;
  kind: PathwayStepKind;
  /** 'f:2' for an outcome instrument, 'c:<id>' for a custom form. */
  form: string;
  messageEn: string;
  messageEs: string;
  reminders: string;
};
type Values = {
  name: string;
  description: string;
  trigger: PathwayTrigger;
  triggerItemIds: string[];
  isActive: boolean;
  steps: StepValues[];
};

const emptyStep = (): StepValues => ({ dayOffset: 0, kind: 'pro', form: 'f:2', messageEn: '', messageEs: '', reminders: '3, 7' });

function toValues(pathway: Pathway | null): Values {
  if (!pathway) {
    return { name: '', description: '', trigger: 'manual', triggerItemIds: [], isActive: true, steps: [emptyStep()] };
  }
  return {
    name: pathway.name,
    description: pathway.description ?? '',
    trigger: pathway.trigger,
    triggerItemIds: pathway.triggerItemIds,
    isActive: pathway.isActive,
    steps: pathway.steps.map((step) => ({
      dayOffset: step.dayOffset,
      kind: step.kind,
      form: step.customFormId ? `c:${step.customFormId}` : step.formCode ? `f:${step.formCode}` : '',
      messageEn: step.messageEn ?? '',
      messageEs: step.messageEs ?? '',
      reminders: step.reminderDays.join(', '),
    })),
  };
}

/** "3, 7" → [3, 7]; null when a part is not a whole number of days. */
function reminderDays(text: string): number[] | null {
  const parts = text
    .split(/[,\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.some((part) => !/^\d{1,2}$/.test(part))) return null;
  return parts.map(Number);
}

function toInput(values: Values): { input: PathwayInput; reminderErrors: number[] } {
  const reminderErrors: number[] = [];
  const steps = values.steps.map((step, index) => {
    const days = step.kind === 'pro' || step.kind === 'painJournal' ? reminderDays(step.reminders) : [];
    if (days === null) reminderErrors.push(index);
    const [type, value] = step.form.split(':');
    return {
      dayOffset: step.dayOffset === '' ? Number.NaN : Number(step.dayOffset),
      kind: step.kind,
      formCode: step.kind === 'pro' && type === 'f' ? Number(value) : null,
      customFormId: step.kind === 'pro' && type === 'c' ? (value ?? null) : null,
      messageEn: step.kind === 'education' || step.kind === 'task' ? step.messageEn : null,
      messageEs: step.kind === 'education' ? step.messageEs : null,
      reminderDays: days ?? [],
    };
  });
  return {
    input: {
      name: values.name,
      description: values.description || null,
      trigger: values.trigger,
      triggerItemIds: values.trigger === 'procedure' || values.trigger === 'cohort' ? values.triggerItemIds : [],
      isActive: values.isActive,
      steps,
    },
    reminderErrors,
  };
}

/** Maps a field path of the payload ('steps.0.formCode') to the editor's input ('steps.0.form'). */
const editorPath = (path: string) =>
  path.replace(/\.(formCode|customFormId)$/, '.form').replace(/\.reminderDays(\.\d+)?$/, '.reminders');

/** Create or edit a pathway and its steps as one (Admins and System Managers). */
export function PathwayEditor({ pathway, onClose }: { pathway: Pathway | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('pathways');
  const queryClient = useQueryClient();
  const options = useQuery(pathwayQueries.options());
  const availability = useFormAvailability();
  const [problem, setProblem] = useState<string | null>(null);
  const { control, register, handleSubmit, watch, setError, formState } = useForm<Values>({ defaultValues: toValues(pathway) });
  const { fields, append, remove } = useFieldArray({ control, name: 'steps' });
  const trigger = watch('trigger');
  const steps = watch('steps');
  const errors = formState.errors;
  const errorOf = (path: string): string | undefined => {
    const parts = path.split('.');
    let node: unknown = errors;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    const message = (node as { message?: string } | undefined)?.message;
    return message ? translateValidation(message) : undefined;
  };

  const save = useMutation({
    mutationFn: (input: PathwayInput) => (pathway ? pathwayApi.update(pathway.id, input) : pathwayApi.create(input)),
    onSuccess: () => {
      notify('success', t('saved'));
      void queryClient.invalidateQueries({ queryKey: pathwayKeys.all });
      onClose();
    },
    onError: (failure) => {
      if (failure instanceof ApiError && Object.keys(failure.fields).length > 0) {
        for (const [field, key] of Object.entries(failure.fields)) {
          setError(editorPath(field) as 'name', { type: 'server', message: key });
        }
      }
      setProblem(errorText(failure));
    },
  });

  const submit = handleSubmit((values) => {
    setProblem(null);
    const { input, reminderErrors } = toInput(values);
    for (const index of reminderErrors)
      setError(`steps.${index}.reminders`, { type: 'client', message: t('editor.remindersInvalid') });
    const parsed = pathwayInputSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        setError(editorPath(issue.path.join('.')) as 'name', { type: 'client', message: issue.message });
      }
    }
    if (reminderErrors.length > 0 || !parsed.success) return;
    save.mutate(input);
  });

  const formOptions = [
    {
      group: t('editor.instruments'),
      items: formCodes.map((code) => ({
        value: `f:${code}`,
        label: availability.label(
          code,
          i18n.language === 'es' && instruments[code].name.es ? instruments[code].name.es! : instruments[code].name.en,
        ),
        disabled: availability.isUnavailable(code),
      })),
    },
    ...(options.data && options.data.customForms.length > 0
      ? [
          {
            group: t('editor.customForms'),
            items: options.data.customForms.map((form) => ({ value: `c:${form.id}`, label: form.title })),
          },
        ]
      : []),
  ];
  const itemOptions =
    trigger === 'procedure'
      ? (options.data?.procedures ?? []).map((item) => ({ value: item.id, label: item.name }))
      : (options.data?.studyGroups ?? []).map((item) => ({ value: item.id, label: item.name }));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="pathway-editor">
      <Stack gap="md">
        {pathway?.isExample ? <Alert color="yellow">{t('exampleNotice')}</Alert> : null}
        {pathway ? (
          <Text size="sm" c="dimmed">
            {t('editor.editNote')}
          </Text>
        ) : null}
        <TextInput label={t('editor.name')} required maxLength={200} {...register('name')} error={errorOf('name')} />
        <Textarea
          label={t('editor.description')}
          autosize
          minRows={2}
          maxLength={2000}
          {...register('description')}
          error={errorOf('description')}
        />
        <Group grow align="flex-start">
          <Controller
            control={control}
            name="trigger"
            render={({ field }) => (
              <Select
                label={t('editor.trigger')}
                data={pathwayTriggers.map((value) => ({ value, label: t(`triggers.${value}`) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? 'manual')}
                allowDeselect={false}
              />
            )}
          />
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => (
              <Switch
                mt={30}
                label={t('editor.active')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
        </Group>
        {trigger === 'procedure' || trigger === 'cohort' ? (
          <Controller
            control={control}
            name="triggerItemIds"
            render={({ field }) => (
              <MultiSelect
                label={t(trigger === 'procedure' ? 'editor.procedures' : 'editor.studyGroups')}
                data={itemOptions}
                value={field.value}
                onChange={field.onChange}
                searchable
                error={errorOf('triggerItemIds')}
              />
            )}
          />
        ) : null}
        <Group justify="space-between">
          <Title order={3} size="h5">
            {t('editor.steps')}
          </Title>
          <Button size="xs" variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => append(emptyStep())}>
            {t('editor.addStep')}
          </Button>
        </Group>
        {errorOf('steps') ? (
          <Text c="red" size="sm">
            {t('editor.noSteps')}
          </Text>
        ) : null}
        {fields.map((field, index) => {
          const kind = steps[index]?.kind ?? 'pro';
          return (
            <Paper
              key={field.id}
              withBorder
              p="sm"
              component="fieldset"
              aria-label={t('editor.step', { number: index + 1 })}
              data-testid="pathway-step"
            >
              <Stack gap="xs">
                <Group align="flex-start" wrap="wrap" gap="sm">
                  <Controller
                    control={control}
                    name={`steps.${index}.dayOffset`}
                    render={({ field: day }) => (
                      <NumberInput
                        label={t('editor.dayOffset')}
                        description={t('editor.dayOffsetHelp')}
                        min={0}
                        max={730}
                        allowDecimal={false}
                        w={150}
                        value={day.value}
                        onChange={day.onChange}
                        error={errorOf(`steps.${index}.dayOffset`)}
                      />
                    )}
                  />
                  <Controller
                    control={control}
                    name={`steps.${index}.kind`}
                    render={({ field: kindField }) => (
                      <Select
                        label={t('editor.kind')}
                        w={200}
                        data={pathwayStepKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
                        value={kindField.value}
                        onChange={(value) => kindField.onChange(value ?? 'pro')}
                        allowDeselect={false}
                      />
                    )}
                  />
                  {kind === 'pro' ? (
                    <Controller
                      control={control}
                      name={`steps.${index}.form`}
                      render={({ field: formField }) => (
                        <Select
                          label={t('editor.form')}
                          w={280}
                          data={formOptions}
                          value={formField.value || null}
                          onChange={(value) => formField.onChange(value ?? '')}
                          searchable
                          error={errorOf(`steps.${index}.form`)}
                        />
                      )}
                    />
                  ) : null}
                  {kind === 'pro' || kind === 'painJournal' ? (
                    <TextInput
                      label={t('editor.reminders')}
                      description={t('editor.remindersHelp')}
                      w={200}
                      maxLength={40}
                      {...register(`steps.${index}.reminders`)}
                      error={errorOf(`steps.${index}.reminders`)}
                    />
                  ) : null}
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={28}
                    aria-label={t('editor.removeStep', { number: index + 1 })}
                    onClick={() => remove(index)}
                    disabled={fields.length === 1}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
                {kind === 'education' || kind === 'task' ? (
                  <Textarea
                    label={t(kind === 'task' ? 'editor.taskText' : 'editor.messageEn')}
                    autosize
                    minRows={2}
                    maxLength={2000}
                    {...register(`steps.${index}.messageEn`)}
                    error={errorOf(`steps.${index}.messageEn`)}
                  />
                ) : null}
                {kind === 'education' ? (
                  <Textarea
                    label={t('editor.messageEs')}
                    autosize
                    minRows={2}
                    maxLength={2000}
                    {...register(`steps.${index}.messageEs`)}
                    error={errorOf(`steps.${index}.messageEs`)}
                  />
                ) : null}
              </Stack>
            </Paper>
          );
        })}
        {problem ? <Alert color="red">{problem}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="pathway-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
