import { Anchor, Badge, Button, Center, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { outcomeForms } from '@pathwell/contracts/instance-settings';
import type { PerformanceFilter, PerformanceGroup, PerformanceMeasureKey } from '@pathwell/contracts/reports-performance';
import { useSession } from '../../../app/session-context';
import { Pager } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { formatClinicDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
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
  const { t } = useTranslation('reportsPerformance');
  const title = target
    ? t('patients.title', {
        measure: t(`measures.${target.measure}.name`),
        group: t(`groups.${target.group}`),
        form: target.formCode ? ` (${formName(target.formCode)})` : '',
      })
    : '';
  return (
    <Modal opened={target !== null} onClose={onClose} size="xl" title={title}>
      {target ? <PatientsBody filter={filter} target={target} title={title} /> : null}
    </Modal>
  );
}

function PatientsBody({ filter, target, title }: { filter: PerformanceFilter; target: PatientsTarget; title: string }) {
  const { t, i18n } = useTranslation('reportsPerformance');
  const timeZone = useSession().instance.timeZoneId;
  const [page, setPage] = useState(0);
  const rows = useQuery(
    performanceQueries.patients({
      filter,
      measure: target.measure,
      group: target.group,
      formCode: target.formCode ?? null,
      pageNumber: page,
      pageSize: PAGE_SIZE_DEFAULT,
    }),
  );
  const number = (value: number | null) =>
    value === null ? '—' : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value);
  const date = (value: string | null) => (value ? formatClinicDate(value, timeZone) : '—');
  const pain = target.measure === 'painChange';

  if (rows.isError && !rows.data)
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="performance-patients-error">
          {t('patients.loadFailed')} {errorText(rows.error)}
        </ErrorAlert>
        <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void rows.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  if (!rows.data)
    return (
      <Center py="xl">
        <Loader aria-label={t('patients.loading')} />
      </Center>
    );

  return (
    <Stack gap="sm" data-testid="performance-patients">
      <Text size="sm" c="dimmed">
        {t('patients.count', { count: rows.data.totalRecords })}
      </Text>
      {rows.data.rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="performance-patients-empty">
          {t('patients.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing="xs">
            <caption>{title}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('patients.columns.patient')}</Table.Th>
                <Table.Th scope="col">{t(`measures.${target.measure}.anchor`)}</Table.Th>
                {pain ? null : <Table.Th scope="col">{t('patients.columns.form')}</Table.Th>}
                <Table.Th scope="col">{t('patients.columns.firstScore')}</Table.Th>
                <Table.Th scope="col">{t(`measures.${target.measure}.follow`)}</Table.Th>
                <Table.Th scope="col">{t('patients.columns.latestScore')}</Table.Th>
                <Table.Th scope="col">{t('patients.columns.change')}</Table.Th>
                <Table.Th scope="col">{t('patients.columns.met')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.rows.map((row) => (
                <Table.Tr key={row.patientId} data-testid="performance-patient-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} size="sm">
                      {row.fullName}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {t('patients.born', { date: dayText(row.birthDate) })}
                      {row.doctor ? ` · ${row.doctor}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{date(row.anchorAt)}</Table.Td>
                  {pain ? null : <Table.Td>{formName(row.formCode)}</Table.Td>}
                  <Table.Td>{number(row.firstScore)}</Table.Td>
                  <Table.Td>{date(row.followAt)}</Table.Td>
                  <Table.Td>{number(row.latestScore)}</Table.Td>
                  <Table.Td>{number(row.change)}</Table.Td>
                  <Table.Td>
                    {row.excluded ? (
                      <Badge variant="light" color="orange" miw="max-content">
                        {t('patients.excluded')}
                      </Badge>
                    ) : (
                      <Badge variant="light" color={row.met ? 'teal' : 'gray'} miw="max-content">
                        {row.met ? t('patients.yes') : t('patients.no')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager
        totalRecords={rows.data.totalRecords}
        pageNumber={page}
        onPage={setPage}
        ariaLabel={t('patients.pages')}
        testId="performance-patients-pager"
      />
    </Stack>
  );
}
