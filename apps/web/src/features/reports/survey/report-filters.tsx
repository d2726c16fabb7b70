import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateFilterPreset } from '@pathwell/contracts/appointments';
import { reportDatePresets, reportPeriods, type ReportPeriod } from '@pathwell/contracts/reports-survey';
import { translateValidation } from '../../../lib/i18n';
import { DateRangeFields, dateFilterOf, type DateDraft } from '../shared/date-range-fields';

/** What the survey and office-visits pages share: the dates and the period of their filter. */
export type PeriodDraft = DateDraft & { period: ReportPeriod };

export const defaultPeriodDraft: PeriodDraft = {
  dateFilter: DateFilterPreset.ThisYear,
  startDate: '',
  endDate: '',
  period: 'month',
};

/** The date part as the contract takes it (the days only with a custom range), and the period. */
export function periodFilterOf(draft: PeriodDraft) {
  return { ...dateFilterOf(draft), period: draft.period };
}

export function PeriodFields<D extends PeriodDraft>({
  draft,
  errors,
  onChange,
  testId,
}: {
  draft: D;
  errors: Record<string, string>;
  onChange: (draft: D) => void;
  testId: string;
}) {
  const { t } = useTranslation('reportsActivity');
  return (
    <>
      <DateRangeFields
        draft={draft}
        errors={errors}
        onChange={onChange}
        presets={reportDatePresets}
        ns="reportsActivity"
        testId={`${testId}-preset`}
        presetWidth={190}
        dateWidth={140}
      />
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
