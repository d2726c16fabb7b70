import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, get, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { checkboxConditionValues } from '@pathwell/contracts/custom-forms';
import { enumerations } from '@pathwell/contracts/enumerations';
import { QuestionType, type QuestionTypeCode } from '@pathwell/contracts/forms';
import { translateValidation } from '../../lib/i18n';
import { emptyOption, isOptionType, type BuilderValues, type QuestionValues } from './custom-form-values';

/** The message of a field's error, whichever way it was set (resolver, server, array root). */
export function useFieldError() {
  const {
    formState: { errors },
  } = useFormContext<BuilderValues>();
  return (path: string): string | undefined => {
    const error = get(errors, path) as { message?: string; root?: { message?: string } } | undefined;
    return translateValidation(error?.message ?? error?.root?.message);
  };
}

/** Earlier questions a condition may point at: those with options, and checkboxes (ticked or not). */
function conditionSources(questions: readonly QuestionValues[], index: number) {
  return questions
    .slice(0, index)
    .map((question, position) => ({ question, number: position + 1 }))
    .filter(
      ({ question }) => question.type === QuestionType.CHECKBOX || (isOptionType(question.type) && question.options.length > 0),
    );
}

export function conditionValues(source: QuestionValues | undefined, t: (key: string) => string) {
  if (!source) return [];
  if (source.type === QuestionType.CHECKBOX) {
    return checkboxConditionValues.map((value) => ({
      value,
      label: value === 'true' ? t('builder.checked') : t('builder.unchecked'),
    }));
  }
  return source.options
    .filter((option) => option.value.trim())
    .map((option) => ({ value: option.value.trim(), label: option.label.en.trim() || option.value.trim() }));
}

function OptionsEditor({ index }: { index: number }) {
  const { t } = useTranslation('customForms');
  const { control, register } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  const { fields, append, remove } = useFieldArray({ control, name: `questions.${index}.options` });
  const base = `questions.${index}.options` as const;
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={600} size="sm">
        {t('builder.options')}
      </Text>
      {fields.map((field, optionIndex) => (
        <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap" data-testid={`question-${index}-option`}>
          <TextInput
            label={t('builder.optionValue')}
            aria-label={`${t('builder.optionNumber', { number: optionIndex + 1 })}: ${t('builder.optionValue')}`}
            w={110}
            error={errorAt(`${base}.${optionIndex}.value`)}
            {...register(`${base}.${optionIndex}.value`)}
          />
          <TextInput
            label={t('builder.optionLabel')}
            aria-label={`${t('builder.optionNumber', { number: optionIndex + 1 })}: ${t('builder.optionLabel')}`}
            style={{ flex: 1 }}
            error={errorAt(`${base}.${optionIndex}.label.en`)}
            {...register(`${base}.${optionIndex}.label.en`)}
          />
          <TextInput
            label={t('builder.optionLabelEs')}
            aria-label={`${t('builder.optionNumber', { number: optionIndex + 1 })}: ${t('builder.optionLabelEs')}`}
            lang="es"
            style={{ flex: 1 }}
            error={errorAt(`${base}.${optionIndex}.label.es`)}
            {...register(`${base}.${optionIndex}.label.es`)}
          />
          <Controller
            control={control}
            name={`${base}.${optionIndex}.score`}
            render={({ field: score }) => (
              <NumberInput
                label={t('builder.optionScore')}
                aria-label={`${t('builder.optionNumber', { number: optionIndex + 1 })}: ${t('builder.optionScore')}`}
                w={100}
                value={score.value}
                onChange={(value) => score.onChange(typeof value === 'number' ? value : '')}
                onBlur={score.onBlur}
                error={errorAt(`${base}.${optionIndex}.score`)}
              />
            )}
          />
          <Tooltip label={t('builder.removeOption', { number: optionIndex + 1 })}>
            <ActionIcon
              variant="subtle"
              color="red"
              mt={25}
              onClick={() => remove(optionIndex)}
              aria-label={t('builder.removeOption', { number: optionIndex + 1 })}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {errorAt(base) ? (
        <Text c="red" size="sm" role="alert">
          {errorAt(base)}
        </Text>
      ) : null}
      <Group>
        <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => append(emptyOption())}>
          {t('builder.addOption')}
        </Button>
      </Group>
    </Stack>
  );
}

function ShowWhenPicker({ index }: { index: number }) {
  const { t } = useTranslation('customForms');
  const { control, setValue } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  const questions = useWatch({ control, name: 'questions' });
  const sources = conditionSources(questions, index);
  const chosenId = questions[index]?.showWhen.questionId ?? '';
  const source = questions.find((question) => question.id === chosenId);
  const conditionError = errorAt(`questions.${index}.showWhen`) ?? errorAt(`questions.${index}.showWhen.questionId`);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Controller
        control={control}
        name={`questions.${index}.showWhen.questionId`}
        render={({ field }) => (
          <Select
            label={t('builder.showWhen')}
            aria-label={`${t('builder.questionHeading', { number: index + 1 })}: ${t('builder.showWhen')}`}
            placeholder={t('builder.always')}
            clearable
            data={sources.map(({ question, number }) => ({
              value: question.id,
              label: `${number}. ${question.text.en.trim() || question.id}`,
            }))}
            value={field.value || null}
            onChange={(value) => {
              field.onChange(value ?? '');
              setValue(`questions.${index}.showWhen.equals`, '');
            }}
            error={conditionError}
          />
        )}
      />
      {chosenId ? (
        <Controller
          control={control}
          name={`questions.${index}.showWhen.equals`}
          render={({ field }) => (
            <Select
              label={t('builder.showWhenValue')}
              aria-label={`${t('builder.questionHeading', { number: index + 1 })}: ${t('builder.showWhenValue')}`}
              placeholder={t('builder.choose')}
              data={conditionValues(source, t)}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              error={errorAt(`questions.${index}.showWhen.equals`)}
            />
          )}
        />
      ) : null}
    </SimpleGrid>
  );
}

type QuestionEditorProps = {
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
};

/** One question of the builder: type, texts, required, section, options or range, and its condition. */
export function QuestionEditor({ index, count, onMove, onRemove }: QuestionEditorProps) {
  const { t, i18n } = useTranslation('customForms');
  const { control, register, setValue, getValues } = useFormContext<BuilderValues>();
  const errorAt = useFieldError();
  const type = useWatch({ control, name: `questions.${index}.type` });
  const sections = useWatch({ control, name: 'sections' });
  const number = index + 1;
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  const typeOptions = enumerations.customQuestionTypes.map((option) => ({
    value: String(option.value),
    label: option.label[language],
  }));
  const at = (field: string) => `questions.${index}.${field}`;

  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby={`question-${index}-title`}
      data-testid="question-editor"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5" id={`question-${index}-title`}>
            {t('builder.questionHeading', { number })}
          </Title>
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t('builder.moveUp', { number })}>
              <ActionIcon
                variant="subtle"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
                aria-label={t('builder.moveUp', { number })}
              >
                <IconArrowUp size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('builder.moveDown', { number })}>
              <ActionIcon
                variant="subtle"
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1)}
                aria-label={t('builder.moveDown', { number })}
              >
                <IconArrowDown size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('builder.remove', { number })}>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={count === 1}
                onClick={() => onRemove(index)}
                aria-label={t('builder.remove', { number })}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Controller
            control={control}
            name={`questions.${index}.type`}
            render={({ field }) => (
              <Select
                label={t('builder.type')}
                aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.type')}`}
                data={typeOptions}
                allowDeselect={false}
                value={String(field.value)}
                onChange={(value) => {
                  if (!value) return;
                  const next = Number(value) as QuestionTypeCode;
                  field.onChange(next);
                  if (isOptionType(next) && getValues(`questions.${index}.options`).length === 0) {
                    setValue(`questions.${index}.options`, [emptyOption(), emptyOption()]);
                  }
                }}
                error={errorAt(at('type'))}
              />
            )}
          />
          <Controller
            control={control}
            name={`questions.${index}.sectionId`}
            render={({ field }) => (
              <Select
                label={t('builder.section')}
                aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.section')}`}
                placeholder={t('builder.noSection')}
                clearable
                data={sections.map((section) => ({ value: section.id, label: section.title.en.trim() || section.id }))}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                error={errorAt(at('sectionId'))}
              />
            )}
          />
        </SimpleGrid>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('builder.text')}
            aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.text')}`}
            withAsterisk
            error={errorAt(at('text.en'))}
            {...register(`questions.${index}.text.en`)}
          />
          <TextInput
            label={t('builder.textEs')}
            aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.textEs')}`}
            lang="es"
            error={errorAt(at('text.es'))}
            {...register(`questions.${index}.text.es`)}
          />
          <TextInput
            label={t('builder.help')}
            aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.help')}`}
            error={errorAt(at('help.en')) ?? errorAt(at('help'))}
            {...register(`questions.${index}.help.en`)}
          />
          <TextInput
            label={t('builder.helpEs')}
            aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.helpEs')}`}
            lang="es"
            error={errorAt(at('help.es'))}
            {...register(`questions.${index}.help.es`)}
          />
        </SimpleGrid>

        {type === QuestionType.INFO ? null : (
          <Checkbox
            label={t('builder.required')}
            aria-label={`${t('builder.questionHeading', { number })}: ${t('builder.required')}`}
            {...register(`questions.${index}.required`)}
          />
        )}

        {isOptionType(type) ? <OptionsEditor index={index} /> : null}

        {type === QuestionType.NUMBER ? (
          <SimpleGrid cols={2} spacing="sm">
            {(['min', 'max'] as const).map((bound) => (
              <Controller
                key={bound}
                control={control}
                name={`questions.${index}.${bound}`}
                render={({ field }) => (
                  <NumberInput
                    label={t(`builder.${bound}`)}
                    aria-label={`${t('builder.questionHeading', { number })}: ${t(`builder.${bound}`)}`}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                    onBlur={field.onBlur}
                    error={errorAt(at(bound))}
                  />
                )}
              />
            ))}
          </SimpleGrid>
        ) : null}

        {errorAt(at('id')) ? (
          <Text c="red" size="sm" role="alert">
            {errorAt(at('id'))}
          </Text>
        ) : null}

        <ShowWhenPicker index={index} />
      </Stack>
    </Paper>
  );
}
