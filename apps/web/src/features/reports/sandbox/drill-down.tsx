import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SummaryFilter, SummaryPatientRow } from '@pathwell/contracts/reports-summary';
import { useSession } from '../../../app/session-context';
import { formatClinicDate } from '../../../lib/dates';
import { PatientLink, PatientsModal, type PatientColumn } from '../shared/patients-modal';
import { sandboxQueries } from './sandbox.api';
import { useNumberFormat, type DrillTarget } from './series-card';

/** A clinic day (YYYY-MM-DD) as MM/DD/YYYY without moving it through a time zone; instants on the clinic's clock. */
function dayText(value: string, timeZone: string) {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? `${day[2]}/${day[3]}/${day[1]}` : formatClinicDate(value, timeZone);
}

/** The patients behind one point of one series, 15 a page (the server applies the doctor scope). */
export function DrillDown({
  filter,
  target,
  onClose,
}: {
  filter: SummaryFilter;
  target: DrillTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('reportsSandbox');
  const timeZone = useSession().instance.timeZoneId;
  const format = useNumberFormat();
  const labels = target ? { title: target.seriesTitle, week: target.weekLabel } : null;
  const columns: PatientColumn<SummaryPatientRow>[] = [
    {
      key: 'patient',
      header: t('drill.columns.patient'),
      cell: (row) => <PatientLink patientId={row.patientId} name={row.fullName} detail={row.doctorName} />,
    },
    { key: 'baselineDate', header: t('drill.columns.baselineDate'), cell: (row) => dayText(row.baselineDate, timeZone) },
    { key: 'baselineScore', header: t('drill.columns.baselineScore'), cell: (row) => format.number(row.baselineScore) },
    { key: 'scoreDate', header: t('drill.columns.scoreDate'), cell: (row) => dayText(row.scoreDate, timeZone) },
    { key: 'score', header: t('drill.columns.score'), cell: (row) => format.number(row.score) },
    { key: 'improvement', header: t('drill.columns.improvement'), cell: (row) => format.number(row.improvement) },
    {
      key: 'mcid',
      header: t('drill.columns.mcid'),
      cell: (row) =>
        row.reachedMcid === null ? (
          '—'
        ) : (
          <Badge variant="light" color={row.reachedMcid ? 'teal' : 'gray'} miw="max-content">
            {row.reachedMcid ? t('drill.yes') : t('drill.no')}
          </Badge>
        ),
    },
  ];
  return (
    <PatientsModal
      opened={target !== null}
      onClose={onClose}
      title={labels ? t('drill.title', labels) : ''}
      caption={labels ? t('drill.caption', labels) : ''}
      query={(paging) =>
        sandboxQueries.patients({ filter, seriesKey: target?.seriesKey ?? '', week: target?.week ?? 0, ...paging })
      }
      rowsOf={(data) => data.data}
      totalOf={(data) => data.totalRecords}
      columns={columns}
      texts={{
        loadFailed: t('drill.loadFailed'),
        retry: t('retry'),
        loading: t('drill.loading'),
        empty: t('drill.empty'),
        pages: t('drill.pages'),
        count: (count) => t('drill.count', { count }),
      }}
      testIds={{ body: 'sandbox-drill', error: 'sandbox-drill-error', row: 'sandbox-drill-row', pager: 'sandbox-drill-pager' }}
    />
  );
}
