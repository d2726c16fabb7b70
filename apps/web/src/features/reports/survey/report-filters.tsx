import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { enumerations } from '@pathwell/contracts/enumerations';
import { reportDatePresets, reportPeriods, type ReportPeriod } from '@pathwell/contracts/reports-survey';
import { translateValidation } from '../../../lib/i18n';

/** What the survey and office-visits pages share: the dates and the period of their filter. */
export type PeriodDraft = { dateFilter: number; startDate: string; endDate: string; period: ReportPeriod };

export const defaultPeriodDraft: PeriodDraft = {
  dateFilter: DateFilterPreset.ThisYear,
  startDate: '',
  endDate: '',
  period: 'month',
};

/** The date part as the contract takes it: the days only with a custom range. */
export function periodFilterOf(draft: PeriodDraft) {
  const custom = draft.dateFilter === DateFilterPreset.CustomRange;
  return {
    dateFilter: draft.dateFilter,
    period: draft.period,
    ...(custom ? { startDate: draft.startDate.trim(), endDate: draft.endDate.trim() } : {}),
  };
}

/** Zod issues or a 400's fields, by their first path segment, first message per field. */
export function fieldErrorsOf(entries: [string, string][]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of entries) errors[path.split('.')[0] ?? path] ??= message;
  return errors;
}

export function PeriodFields({
  draft,
  errors,
  onChange,
  testId,
}: {
  draft: PeriodDraft;
  errors: Record<string, string>;
  onChange: (draft: PeriodDraft) => void;
  testId: string;
}) {
  const { t, i18n } = useTranslation('reportsActivity');
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
        w={190}
        error={translateValidation(errors.dateFilter)}
        data-testid={`${testId}-preset`}
      />
      {draft.dateFilter === DateFilterPreset.CustomRange ? (
        <>
          <TextInput
            label={t('filters.startDate')}
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            maxLength={10}
            w={140}
            value={draft.startDate}
            onChange={(event) => onChange({ ...draft, startDate: event.currentTarget.value })}
            error={translateValidation(errors.startDate)}
          />
          <TextInput
            label={t('filters.endDate')}
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            maxLength={10}
            w={140}
            value={draft.endDate}
            onChange={(event) => onChange({ ...draft, endDate: event.currentTarget.value })}
            error={translateValidation(errors.endDate)}
          />
        </>
      ) : null}
      <Select
        label={t('filters.period')}
        data={reportPeriods.map((period) => ({ value: period, label: t(`periods.${period}`) }))}
        value={draft.period}
        onChange={(value) => onChange({ ...draft, period: (value as ReportPeriod | null) ?? 'month' })}
        allowDeselect={false}
        w={120}
        error={translateValidation(errors.period)}
        data-testid={`${testId}-period`}
      />
    </>
  );
}

/** 'YYYY-MM-DD' of a period's first day, as people read it: "03/2031" or "Week of 03/30/2031". */
export function usePeriodLabel(period: ReportPeriod) {
  const { t } = useTranslation('reportsActivity');
  return (start: string) => {
    const [year, month, day] = start.split('-');
    return period === 'month' ? `${month}/${year}` : t('periodOf.week', { date: `${month}/${day}/${year}` });
  };
}

export function useFormat() {
  const { t, i18n } = useTranslation('reportsActivity');
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return {
    rate: (value: number | null) => (value === null ? '—' : percent.format(value)),
    number: (value: number) => new Intl.NumberFormat(i18n.language).format(value),
    duration: (minutes: number | null) =>
      minutes === null
        ? '—'
        : minutes < 120
          ? t('minutes', { value: decimal.format(minutes) })
          : minutes < 48 * 60
            ? t('hours', { value: decimal.format(minutes / 60) })
            : t('days', { value: decimal.format(minutes / 1440) }),
  };
}
