import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
import { reportDatePresets } from '@pathwell/contracts/reports-referrals';
import { translateValidation } from '../../../lib/i18n';

export type DateDraft = { dateFilter: number; startDate: string; endDate: string };
export type DateErrors = Partial<Record<'dateFilter' | 'startDate' | 'endDate', string>>;

/** The date part of a report filter as the contract takes it: the days only with a custom range. */
export function dateFilterOf(draft: DateDraft) {
  const custom = draft.dateFilter === DateFilterPreset.CustomRange;
  return {
    dateFilter: draft.dateFilter,
    ...(custom ? { startDate: draft.startDate.trim(), endDate: draft.endDate.trim() } : {}),
  };
}

/** Zod issues or a 400's fields, keyed by the last segment of their path, first message per field. */
export function fieldErrorsOf(entries: [string, string][]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of entries) {
    const field = path.split('.')[0] ?? path;
    errors[field] ??= message;
  }
  return errors;
}

/** Preset, and the two days of a custom range (MM/DD/YYYY), shared by both pages of the namespace. */
export function DateFields({
  draft,
  errors,
  onChange,
  testId,
}: {
  draft: DateDraft;
  errors: DateErrors;
  onChange: (draft: DateDraft) => void;
  testId: string;
}) {
  const { t, i18n } = useTranslation('reportsReferrals');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const presets = reportDatePresets.map((value) => {
    const option = enumerations.dateFilterPresets.find((preset) => preset.value === value);
    return { value: String(value), label: option ? option.label[language] : String(value) };
  });
  return (
    <>
      <Select
        label={t('filters.dateFilter')}
        data={presets}
        value={String(draft.dateFilter)}
        onChange={(value) => onChange({ ...draft, dateFilter: Number(value ?? draft.dateFilter) })}
        allowDeselect={false}
        w={200}
        error={translateValidation(errors.dateFilter)}
        data-testid={testId}
      />
      {draft.dateFilter === DateFilterPreset.CustomRange ? (
        <>
          <TextInput
            label={t('filters.startDate')}
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            maxLength={10}
            w={150}
            value={draft.startDate}
            onChange={(event) => onChange({ ...draft, startDate: event.currentTarget.value })}
            error={translateValidation(errors.startDate)}
          />
          <TextInput
            label={t('filters.endDate')}
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            maxLength={10}
            w={150}
            value={draft.endDate}
            onChange={(event) => onChange({ ...draft, endDate: event.currentTarget.value })}
            error={translateValidation(errors.endDate)}
          />
        </>
      ) : null}
    </>
  );
}
