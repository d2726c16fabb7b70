import { Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnswerValue, FormQuestion, OptionValue, SignatureAnswer } from '@pathwell/contracts/forms';
import { useSession } from '../../app/session-context';
import { formatClinicDateTime } from '../../lib/dates';
import { localized } from './questionnaire-text';

function isSignature(value: AnswerValue | undefined): value is SignatureAnswer {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'image' in value;
}

function optionLabel(question: FormQuestion, value: OptionValue, language: string): string {
  const option = question.options?.find((candidate) => String(candidate.value) === String(value));
  return option ? localized(option.label, language) : String(value);
}

/** One answer as the patient saw it: option labels in the response's language, the signature as signed. */
export function AnswerText({
  question,
  value,
  language,
}: {
  question: FormQuestion;
  value: AnswerValue | undefined;
  language: string;
}) {
  const { t } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;

  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('result.notAnswered')}
      </Text>
    );
  }
  if (isSignature(value)) {
    return (
      <Stack gap={4} align="flex-start">
        <Image
          src={value.image}
          alt={t('result.signatureAlt')}
          w={280}
          h="auto"
          fit="contain"
          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'white' }}
        />
        <Text size="sm" c="dimmed">
          {t('result.signedAt', { time: formatClinicDateTime(value.signedAt, timeZone) })}
        </Text>
      </Stack>
    );
  }
  let text: string;
  if (typeof value === 'boolean') text = value ? t('result.yes') : t('result.no');
  else if (Array.isArray(value)) text = value.map((item) => optionLabel(question, item, language)).join(', ');
  else if (question.options?.length) text = optionLabel(question, value, language);
  else text = String(value);
  return (
    <Text size="sm" fw={500} style={{ whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}
