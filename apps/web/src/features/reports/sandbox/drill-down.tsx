import { Anchor, Badge, Button, Center, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import type { SummaryFilter } from '@pathwell/contracts/reports-summary';
import { useSession } from '../../../app/session-context';
import { Pager } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { formatClinicDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
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
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      size="xl"
      title={target ? t('drill.title', { title: target.seriesTitle, week: target.weekLabel }) : ''}
    >
      {target ? <DrillDownBody filter={filter} target={target} /> : null}
    </Modal>
  );
}

function DrillDownBody({ filter, target }: { filter: SummaryFilter; target: DrillTarget }) {
  const { t } = useTranslation('reportsSandbox');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const format = useNumberFormat();
  const [page, setPage] = useState(0);
  const rows = useQuery(
    sandboxQueries.patients({
      filter,
      seriesKey: target.seriesKey,
      week: target.week,
      pageNumber: page,
      pageSize: PAGE_SIZE_DEFAULT,
    }),
  );

  if (rows.isError && !rows.data)
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId="sandbox-drill-error">
          {t('drill.loadFailed')} {errorText(rows.error)}
        </ErrorAlert>
        <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void rows.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  if (!rows.data)
    return (
      <Center py="xl">
        <Loader aria-label={t('drill.loading')} />
      </Center>
    );

  return (
    <Stack gap="sm" data-testid="sandbox-drill">
      <Text size="sm" c="dimmed">
        {t('drill.count', { count: rows.data.totalRecords })}
      </Text>
      {rows.data.data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('drill.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing="xs">
            <caption>{t('drill.caption', { title: target.seriesTitle, week: target.weekLabel })}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('drill.columns.patient')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.baselineDate')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.baselineScore')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.scoreDate')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.score')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.improvement')}</Table.Th>
                <Table.Th scope="col">{t('drill.columns.mcid')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.data.map((row) => (
                <Table.Tr key={row.patientId} data-testid="sandbox-drill-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} size="sm">
                      {row.fullName}
                    </Anchor>
                    {row.doctorName ? (
                      <Text size="xs" c="dimmed">
                        {row.doctorName}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{dayText(row.baselineDate, timeZone)}</Table.Td>
                  <Table.Td>{format.number(row.baselineScore)}</Table.Td>
                  <Table.Td>{dayText(row.scoreDate, timeZone)}</Table.Td>
                  <Table.Td>{format.number(row.score)}</Table.Td>
                  <Table.Td>{format.number(row.improvement)}</Table.Td>
                  <Table.Td>
                    {row.reachedMcid === null ? (
                      '—'
                    ) : (
                      <Badge variant="light" color={row.reachedMcid ? 'teal' : 'gray'} miw="max-content">
                        {row.reachedMcid ? t('drill.yes') : t('drill.no')}
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
        ariaLabel={t('drill.pages')}
        testId="sandbox-drill-pager"
      />
    </Stack>
  );
}
