import { Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnswerValue, FormQuestion } from '@pathwell/contracts/forms';
import { useSession } from '../../app/session-context';
import { formatClinicDateTime } from '../../lib/dates';
import { answerDisplay } from '../../patient/answer-format';
import { lookupKindFor, useLookup } from '../../patient/lookups';

/** One answer as the patient saw it (the same reading as the patient's review page), the signature as signed. */
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
  const lookup = useLookup(lookupKindFor(question));
  const shown = answerDisplay(question, value, language, lookup.options);

  if (shown.kind === 'empty') {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('result.notAnswered')}
      </Text>
    );
  }
  if (shown.kind === 'signature') {
    return (
      <Stack gap={4} align="flex-start">
        <Image
          src={shown.image}
          alt={t('result.signatureAlt')}
          w={280}
          h="auto"
          fit="contain"
          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'white' }}
        />
        <Text size="sm" c="dimmed">
          {t('result.signedAt', { time: formatClinicDateTime(shown.signedAt, timeZone) })}
        </Text>
      </Stack>
    );
  }
  const text = shown.kind === 'yes' ? t('result.yes') : shown.kind === 'no' ? t('result.no') : shown.text;
  return (
    <Text size="sm" fw={500} style={{ whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}
