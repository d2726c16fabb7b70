import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { outcomeForms } from '@pathwell/contracts/instance-settings';
import type {
  PerformanceFilter,
  PerformanceGroup,
  PerformanceMeasureKey,
  PerformancePatient,
} from '@pathwell/contracts/reports-performance';
import { useSession } from '../../../app/session-context';
import { formatClinicDate } from '../../../lib/dates';
import { PatientLink, PatientsModal as SharedPatientsModal, type PatientColumn } from '../shared/patients-modal';
import { performanceQueries } from './performance.api';

export type PatientsTarget = {
  measure: PerformanceMeasureKey;
  group: PerformanceGroup;
  /** mcidImprovement: one form's row. */
  formCode?: number;
};

export const formName = (code: number | null) =>
  code === null ? '—' : (outcomeForms.find((form) => form.id === code)?.name ?? String(code));

/** A birth date (YYYY-MM-DD, a calendar day) as MM/DD/YYYY without moving it through a time zone. */
const dayText = (value: string) => {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? `${day[2]}/${day[3]}/${day[1]}` : value;
};

/** The patients behind one count of one measure, 15 a page (the server applies the doctor scope). */
export function PatientsModal({
  filter,
  target,
  onClose,
}: {
  filter: PerformanceFilter;
  target: PatientsTarget | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('reportsPerformance');
  const timeZone = useSession().instance.timeZoneId;
  const title = target
    ? t('patients.title', {
        measure: t(`measures.${target.measure}.name`),
        group: t(`groups.${target.group}`),
        form: target.formCode ? ` (${formName(target.formCode)})` : '',
      })
    : '';
  const number = (value: number | null) =>
    value === null ? '—' : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value);
  const date = (value: string | null) => (value ? formatClinicDate(value, timeZone) : '—');
  const measure = target?.measure ?? 'painChange';
  const columns: PatientColumn<PerformancePatient>[] = [
    {
      key: 'patient',
      header: t('patients.columns.patient'),
      cell: (row) => (
        <PatientLink
          patientId={row.patientId}
          name={row.fullName}
          detail={`${t('patients.born', { date: dayText(row.birthDate) })}${row.doctor ? ` · ${row.doctor}` : ''}`}
        />
      ),
    },
    { key: 'anchor', header: t(`measures.${measure}.anchor`), cell: (row) => date(row.anchorAt) },
    ...(measure === 'painChange'
      ? []
      : [{ key: 'form', header: t('patients.columns.form'), cell: (row: PerformancePatient) => formName(row.formCode) }]),
    { key: 'first', header: t('patients.columns.firstScore'), cell: (row) => number(row.firstScore) },
    { key: 'follow', header: t(`measures.${measure}.follow`), cell: (row) => date(row.followAt) },
    { key: 'latest', header: t('patients.columns.latestScore'), cell: (row) => number(row.latestScore) },
    { key: 'improvement', header: t('patients.columns.improvement'), cell: (row) => number(row.improvement) },
    {
      key: 'met',
      header: t('patients.columns.met'),
      cell: (row) =>
        row.excluded ? (
          <Badge variant="light" color="orange" miw="max-content">
            {t('patients.excluded')}
          </Badge>
        ) : (
          <Badge variant="light" color={row.met ? 'teal' : 'gray'} miw="max-content">
            {row.met ? t('patients.yes') : t('patients.no')}
          </Badge>
        ),
    },
  ];
  return (
    <SharedPatientsModal
      opened={target !== null}
      onClose={onClose}
      title={title}
      caption={title}
      query={(paging) =>
        performanceQueries.patients({
          filter,
          measure,
          group: target?.group ?? 'denominator',
          formCode: target?.formCode ?? null,
          ...paging,
        })
      }
      rowsOf={(data) => data.rows}
      totalOf={(data) => data.totalRecords}
      columns={columns}
      texts={{
        loadFailed: t('patients.loadFailed'),
        retry: t('retry'),
        loading: t('patients.loading'),
        empty: t('patients.empty'),
        pages: t('patients.pages'),
        count: (count) => t('patients.count', { count }),
      }}
      testIds={{
        body: 'performance-patients',
        error: 'performance-patients-error',
        row: 'performance-patient-row',
        empty: 'performance-patients-empty',
        pager: 'performance-patients-pager',
      }}
    />
  );
}
