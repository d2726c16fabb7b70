import {
  Box,
  Checkbox,
  Divider,
  NumberInput,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QuestionType } from '@pathwell/contracts/forms';
import { conditionValues } from './question-editor';
import type { BuilderValues, QuestionValues, TextValues } from './custom-form-values';

type PreviewLanguage = 'en' | 'es';

/** Spanish where the builder has it, else English: what a patient would read. */
const textIn = (text: TextValues, language: PreviewLanguage) => (language === 'es' && text.es.trim() ? text.es : text.en);

function PreviewAnswer({ question, language }: { question: QuestionValues; language: PreviewLanguage }) {
  const { t } = useTranslation('customForms');
  const label = textIn(question.text, language) || '…';
  const options = question.options.map((option, index) => ({
    value: option.value.trim() || String(index),
    label: textIn(option.label, language) || option.value || '…',
  }));
  const common = {
    label,
    description: textIn(question.help, language) || undefined,
    withAsterisk: question.required,
    disabled: true,
  };
  switch (question.type) {
    case QuestionType.INFO:
      return <Text size="sm">{label}</Text>;
    case QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED:
    case QuestionType.LIKERT_SCALE:
      return (
        <Radio.Group {...common}>
          <Stack gap={4} mt={4}>
            {options.map((option, index) => (
              <Radio key={`${option.value}-${index}`} value={option.value} label={option.label} disabled />
            ))}
          </Stack>
        </Radio.Group>
      );
    case QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED:
      return (
        <Checkbox.Group {...common}>
          <Stack gap={4} mt={4}>
            {options.map((option, index) => (
              <Checkbox key={`${option.value}-${index}`} value={option.value} label={option.label} disabled />
            ))}
          </Stack>
        </Checkbox.Group>
      );
    case QuestionType.DROP_DOWN_WITH_OPTION:
    case QuestionType.STATES:
    case QuestionType.COUNTRIES:
    case QuestionType.TIME_ZONE:
    case QuestionType.PATIENT_PHONENUMBER_TYPE:
      return <Select {...common} data={options} placeholder={t('builder.choose')} />;
    case QuestionType.CHECKBOX:
      return <Checkbox label={label} description={common.description} disabled />;
    case QuestionType.NUMBER:
      return (
        <NumberInput
          {...common}
          min={question.min === '' ? undefined : question.min}
          max={question.max === '' ? undefined : question.max}
          placeholder={
            question.min !== '' && question.max !== ''
              ? t('builder.numberRange', { min: question.min, max: question.max })
              : undefined
          }
        />
      );
    case QuestionType.DESCRIPTIVE:
      return <Textarea {...common} rows={2} />;
    case QuestionType.DATE:
      return <TextInput {...common} type="date" />;
    case QuestionType.SIGNATURE:
      return (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {label}
          </Text>
          <Box
            h={80}
            style={{ border: '1px dashed var(--mantine-color-gray-5)', borderRadius: 8, display: 'grid', placeItems: 'center' }}
          >
            <Text c="dimmed" size="sm">
              {t('builder.signatureBox')}
            </Text>
          </Box>
        </Stack>
      );
    case QuestionType.PHONE_NUMBER:
      return <TextInput {...common} type="tel" />;
    case QuestionType.EMAIL:
      return <TextInput {...common} type="email" />;
    case QuestionType.ZIP_CODE:
    case QuestionType.TAX_ID:
      return <TextInput {...common} />;
  }
}

/** Each question read-only, as the patient renderer lays it out, with its condition spelled out. */
export function FormPreview({ values }: { values: BuilderValues }) {
  const { t } = useTranslation('customForms');
  const [language, setLanguage] = useState<PreviewLanguage>('en');
  return (
    <Paper
      withBorder
      p="md"
      radius="lg"
      component="section"
      aria-labelledby="custom-form-preview-title"
      data-testid="custom-form-preview"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="custom-form-preview-title">
          {t('builder.preview')}
        </Title>
        <SegmentedControl
          aria-label={t('builder.previewLanguage')}
          value={language}
          onChange={(value) => setLanguage(value === 'es' ? 'es' : 'en')}
          data={[
            { value: 'en', label: t('builder.english') },
            { value: 'es', label: t('builder.spanish') },
          ]}
        />
        <Title order={3} size="h5">
          {textIn(values.title, language) || '…'}
        </Title>
        {textIn(values.instructions, language) ? <Text size="sm">{textIn(values.instructions, language)}</Text> : null}
        <Divider />
        {values.questions.length === 0 ? <Text c="dimmed">{t('builder.previewEmpty')}</Text> : null}
        {values.questions.map((question, index) => {
          const source = values.questions.find((candidate) => candidate.id === question.showWhen.questionId);
          const value = conditionValues(source, (key) => t(key)).find((option) => option.value === question.showWhen.equals);
          const section = values.sections.find((candidate) => candidate.id === question.sectionId);
          const previousSection = index > 0 ? values.questions[index - 1]?.sectionId : undefined;
          return (
            <Stack key={`${question.id}-${index}`} gap={4} data-testid="preview-question">
              {section && section.id !== previousSection ? (
                <Text fw={700} size="sm" tt="uppercase" c="dimmed">
                  {textIn(section.title, language)}
                </Text>
              ) : null}
              {source && value ? (
                <Text size="xs" c="blue">
                  {t('builder.shownWhen', { question: textIn(source.text, language) || source.id, value: value.label })}
                </Text>
              ) : null}
              <PreviewAnswer question={question} language={language} />
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
