import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useFieldArray, useForm, useFormContext, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CustomFormDetail } from '@pathwell/contracts/custom-forms';
import type { FormContent } from '@pathwell/contracts/forms';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { customFormApi, customFormKeys } from './custom-forms.api';
import {
  builderSchema,
  emptyBuilderValues,
  emptyText,
  fromContent,
  newQuestion,
  nextId,
  type BuilderValues,
} from './custom-form-values';
import { FormPreview } from './form-preview';
import { QuestionEditor, useFieldError } from './question-editor';

function FormDetails() {
  const { t } = useTranslation('customForms');
  const { register } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  return (
    <Paper withBorder p="md" radius="lg" component="section" aria-labelledby="custom-form-details-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="custom-form-details-title">
          {t('builder.form')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('builder.formTitle')} withAsterisk error={errorAt('title.en')} {...register('title.en')} />
          <TextInput label={t('builder.formTitleEs')} lang="es" error={errorAt('title.es')} {...register('title.es')} />
          <Textarea
            label={t('builder.instructions')}
            rows={2}
            error={errorAt('instructions.en') ?? errorAt('instructions')}
            {...register('instructions.en')}
          />
          <Textarea
            label={t('builder.instructionsEs')}
            lang="es"
            rows={2}
            error={errorAt('instructions.es')}
            {...register('instructions.es')}
          />
        </SimpleGrid>
        <Switch
          label={t('builder.offerSpanish')}
          description={t('builder.offerSpanishHelp')}
          error={errorAt('languages')}
          {...register('offerSpanish')}
        />
      </Stack>
    </Paper>
  );
}

function SectionsEditor() {
  const { t } = useTranslation('customForms');
  const { control, register, getValues, setValue } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  const { fields, append, remove } = useFieldArray({ control, name: 'sections' });
  const removeSection = (index: number) => {
    const id = getValues(`sections.${index}.id`);
    // Questions of a removed section fall back to no section rather than pointing nowhere.
    getValues('questions').forEach((question, questionIndex) => {
      if (question.sectionId === id) setValue(`questions.${questionIndex}.sectionId`, '');
    });
    remove(index);
  };
  return (
    <Paper withBorder p="md" radius="lg" component="section" aria-labelledby="custom-form-sections-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="custom-form-sections-title">
          {t('builder.sections')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('builder.sectionsHelp')}
        </Text>
        {fields.map((field, index) => (
          <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap" data-testid="section-editor">
            <TextInput
              label={t('builder.sectionTitle')}
              aria-label={`${t('builder.sectionTitle')} ${index + 1}`}
              withAsterisk
              style={{ flex: 1 }}
              error={errorAt(`sections.${index}.title.en`) ?? errorAt(`sections.${index}.id`)}
              {...register(`sections.${index}.title.en`)}
            />
            <TextInput
              label={t('builder.sectionTitleEs')}
              aria-label={`${t('builder.sectionTitleEs')} ${index + 1}`}
              lang="es"
              style={{ flex: 1 }}
              error={errorAt(`sections.${index}.title.es`)}
              {...register(`sections.${index}.title.es`)}
            />
            <Tooltip label={t('builder.removeSection', { number: index + 1 })}>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={25}
                onClick={() => removeSection(index)}
                aria-label={t('builder.removeSection', { number: index + 1 })}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() =>
              append({
                id: nextId(
                  's',
                  getValues('sections').map((section) => section.id),
                ),
                title: emptyText(),
              })
            }
          >
            {t('builder.addSection')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function QuestionsEditor() {
  const { t } = useTranslation('customForms');
  const { control, getValues, setValue } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  const { fields, append, move, remove } = useFieldArray({ control, name: 'questions' });
  const removeQuestion = (index: number) => {
    const id = getValues(`questions.${index}.id`);
    // A condition on a removed question would hide its question for ever: drop the condition instead.
    getValues('questions').forEach((question, questionIndex) => {
      if (question.showWhen.questionId === id) setValue(`questions.${questionIndex}.showWhen`, { questionId: '', equals: '' });
    });
    remove(index);
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="custom-form-questions-title">
      <Title order={2} size="h4" id="custom-form-questions-title">
        {t('builder.questions')}
      </Title>
      {errorAt('questions') ? <ErrorAlert>{errorAt('questions')}</ErrorAlert> : null}
      {fields.map((field, index) => (
        <QuestionEditor key={field.id} index={index} count={fields.length} onMove={move} onRemove={removeQuestion} />
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => append(newQuestion(getValues('questions').map((question) => question.id)))}
          data-testid="custom-form-add-question"
        >
          {t('builder.addQuestion')}
        </Button>
      </Group>
    </Stack>
  );
}

function LivePreview() {
  const { control } = useFormContext<BuilderValues>();
  const values = useWatch({ control }) as BuilderValues;
  return <FormPreview values={values} />;
}

function VersionNote({ form }: { form: CustomFormDetail }) {
  const { t } = useTranslation('customForms');
  const current = form.versions.find((version) => version.version === form.currentVersion);
  if (!current || current.responseCount === 0) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle size={18} aria-hidden />}
      data-testid="custom-form-new-version-note"
    >
      {t('builder.newVersionNote', { version: form.currentVersion, count: current.responseCount, next: form.currentVersion + 1 })}
    </Alert>
  );
}

/** The form builder: `form` absent creates a new custom form. */
export function CustomFormBuilder({ form }: { form?: CustomFormDetail }) {
  const { t } = useTranslation('customForms');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const methods = useForm<BuilderValues, unknown, FormContent>({
    resolver: zodResolver(builderSchema),
    defaultValues: form ? fromContent(form.content) : emptyBuilderValues(),
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = methods;

  const onSubmit = handleSubmit(
    async (content) => {
      setFailure(null);
      try {
        if (!form) {
          const created = await customFormApi.create(content);
          queryClient.setQueryData(customFormKeys.detail(created.id), created);
          await queryClient.invalidateQueries({ queryKey: customFormKeys.all, refetchType: 'none' });
          notify('success', t('builder.created'));
          await navigate(`/customforms/${created.id}`, { replace: true });
          return;
        }
        const saved = await customFormApi.update(form.id, content);
        queryClient.setQueryData(customFormKeys.detail(saved.id), saved);
        reset(fromContent(saved.content));
        notify('success', t('builder.saved', { version: saved.currentVersion }));
      } catch (error) {
        if (error instanceof ApiError) {
          for (const [field, key] of Object.entries(error.fields))
            setError(field as Path<BuilderValues>, { type: 'server', message: key });
        }
        setFailure(error instanceof ApiError && Object.keys(error.fields).length ? t('builder.notFixed') : errorText(error));
      }
    },
    () => setFailure(t('builder.notFixed')),
  );

  return (
    <FormProvider {...methods}>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={form ? t('builder.editTitle') : t('builder.createTitle')}
      >
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="md">
              {form ? (
                <Group gap="xs">
                  <Badge variant="light" size="lg" data-testid="custom-form-version">
                    {t('builder.version', { version: form.currentVersion })}
                  </Badge>
                  {form.archived ? (
                    <Badge variant="outline" color="gray" size="lg">
                      {t('builder.archivedBadge')}
                    </Badge>
                  ) : null}
                </Group>
              ) : null}
              {form ? <VersionNote form={form} /> : null}
              <FormDetails />
              <SectionsEditor />
              <QuestionsEditor />
              {failure ? <ErrorAlert testId="custom-form-error">{failure}</ErrorAlert> : null}
              <Group justify="flex-end">
                <Button type="submit" loading={isSubmitting} data-testid="custom-form-save">
                  {t('builder.save')}
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <div style={{ position: 'sticky', top: 16 }}>
              <LivePreview />
            </div>
          </Grid.Col>
        </Grid>
      </form>
    </FormProvider>
  );
}
