import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { questionnaireQueries } from './questionnaires.api';

/**
 * What every outcome-form picker needs to keep a form the clinic cannot give out of reach (issue #24
 * §1, decision 0061): whether a form is unavailable, the label that says so, and the reason. While the
 * answer is loading or failed nothing is disabled; the server refuses such a form anyway.
 */
export function useFormAvailability() {
  const { t } = useTranslation('questionnaires');
  const query = useQuery(questionnaireQueries.availability());
  const unavailable = new Set((query.data ?? []).filter((form) => !form.available).map((form) => form.formCode));
  return {
    isUnavailable: (formCode: number) => unavailable.has(formCode),
    /** The form's name, with "wording not loaded" after it when the clinic cannot give it. */
    label: (formCode: number, name: string) =>
      unavailable.has(formCode) ? `${name} — ${t('availability.notLoadedShort')}` : name,
    /** The one-line reason beside a disabled choice. */
    reason: t('availability.notLoaded'),
    /** The note under a picker that holds such forms. */
    help: unavailable.size > 0 ? t('availability.help') : undefined,
  };
}
