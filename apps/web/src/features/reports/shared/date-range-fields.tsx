import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
import { translateValidation } from '../../../lib/i18n';

export type DateDraft = { dateFilter: number; startDate: string; endDate: string };
type DateErrors = Partial<Record<string, string>>;

/** The date part of a report filter as the contracts take it: the days only with a custom range. */
export function dateFilterOf(draft: DateDraft) {
  const custom = draft.dateFilter === DateFilterPreset.CustomRange;
  return {
    dateFilter: draft.dateFilter,
    ...(custom ? { startDate: draft.startDate.trim(), endDate: draft.endDate.trim() } : {}),
  };
}

/**
 * Zod issues or a 400's fields, keyed by the last segment of their path (the fields a filter shows are
 * all leaves: dateFilter, startDate, endDate, period), first message per field.
 */
export function fieldErrorsOf(entries: [string, string][]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of entries) errors[path.split('.').at(-1) ?? path] ??= message;
  return errors;
}

/** A failed `safeParse`'s issues as `fieldErrorsOf` takes them. */
export const issueEntries = (issues: { path: PropertyKey[]; message: string }[]): [string, string][] =>
  issues.map((issue) => [issue.path.map(String).join('.'), issue.message]);

/**
 * Every report's date filter: the preset, and the two days (MM/DD/YYYY) of a custom range. The labels are
 * `filters.dateFilter`, `filters.startDate` and `filters.endDate` of the report's own namespace.
 */
export function DateRangeFields<D extends DateDraft>({
  draft,
  errors,
  onChange,
  presets,
  ns,
  testId,
  placeholder = 'MM/DD/YYYY',
  presetWidth = 200,
  dateWidth = 150,
}: {
  draft: D;
  errors: DateErrors;
  onChange: (draft: D) => void;
  presets: readonly number[];
  ns: string;
  /** The preset's test id. */
  testId: string;
  placeholder?: string;
  presetWidth?: number;
  dateWidth?: number;
}) {
  const { t, i18n } = useTranslation(ns);
  const language = i18n.language === 'es' ? 'es' : 'en';
  const options = presets.map((value) => {
    const option = enumerations.dateFilterPresets.find((preset) => preset.value === value);
    return { value: String(value), label: option ? option.label[language] : String(value) };
  });
  const day = (field: 'startDate' | 'endDate') => (
    <TextInput
      label={t(`filters.${field}`)}
      placeholder={placeholder}
      inputMode="numeric"
      maxLength={10}
      w={dateWidth}
      value={draft[field]}
      onChange={(event) => onChange({ ...draft, [field]: event.currentTarget.value })}
      error={translateValidation(errors[field])}
    />
  );
  return (
    <>
      <Select
        label={t('filters.dateFilter')}
        data={options}
        value={String(draft.dateFilter)}
        onChange={(value) => onChange({ ...draft, dateFilter: Number(value ?? draft.dateFilter) })}
        allowDeselect={false}
        w={presetWidth}
        error={translateValidation(errors.dateFilter)}
        data-testid={testId}
      />
      {draft.dateFilter === DateFilterPreset.CustomRange ? (
        <>
          {day('startDate')}
          {day('endDate')}
        </>
      ) : null}
    </>
  );
}
