import { Anchor, Center, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { Pager } from '../../../components/data-table';
import { ReportEmpty, ReportState } from './report-state';
import { ReportTable } from './report-table';

type Paging = { pageNumber: number; pageSize: number };

export type PatientColumn<Row> = { key: string; header: ReactNode; cell: (row: Row) => ReactNode };

/** A patient's name linking to their dashboard, with an optional dimmed line under it. */
export function PatientLink({ patientId, name, detail }: { patientId: string; name: string; detail?: ReactNode }) {
  return (
    <>
      <Anchor component={Link} to={`/patients/patientdashboard/${patientId}`} size="sm">
        {name}
      </Anchor>
      {detail ? (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      ) : null}
    </>
  );
}

type BodyProps<Data, Row, Key extends QueryKey> = {
  /** The report's patients query for one page (the server applies the doctor scope). */
  query: (paging: Paging) => UseQueryOptions<Data, Error, Data, Key>;
  rowsOf: (data: Data) => Row[];
  totalOf: (data: Data) => number;
  columns: PatientColumn<Row>[];
  caption: string;
  texts: { loadFailed: string; retry: string; loading: string; empty: string; pages: string; count: (total: number) => string };
  /** Where the number of patients shows: a line above the table, or next to the pages. */
  countAt?: 'top' | 'pager';
  minWidth?: number;
  testIds: { body: string; error: string; row: string; empty?: string; pager?: string };
};

/**
 * The patients behind one number of a report, a page at a time: the modal, its loading, failure and
 * empty states, the table (each report gives its own columns, usually a `PatientLink` first) and the pages.
 */
export function PatientsModal<Data, Row extends { patientId: string }, Key extends QueryKey>({
  opened,
  onClose,
  title,
  ...body
}: { opened: boolean; onClose: () => void; title: string } & BodyProps<Data, Row, Key>) {
  return (
    <Modal opened={opened} onClose={onClose} size="xl" title={title}>
      {opened ? <PatientsBody {...body} /> : null}
    </Modal>
  );
}

function PatientsBody<Data, Row extends { patientId: string }, Key extends QueryKey>({
  query,
  rowsOf,
  totalOf,
  columns,
  caption,
  texts,
  countAt = 'top',
  minWidth = 760,
  testIds,
}: BodyProps<Data, Row, Key>) {
  const [page, setPage] = useState(0);
  const rows = useQuery(query({ pageNumber: page, pageSize: PAGE_SIZE_DEFAULT }));
  return (
    <ReportState
      query={rows}
      loadFailed={texts.loadFailed}
      retry={texts.retry}
      loading={texts.loading}
      errorTestId={testIds.error}
      loader={
        <Center py="xl">
          <Loader aria-label={texts.loading} />
        </Center>
      }
    >
      {(data) => {
        const list = rowsOf(data);
        const total = totalOf(data);
        return (
          <Stack gap="sm" data-testid={testIds.body}>
            {countAt === 'top' ? (
              <Text size="sm" c="dimmed">
                {texts.count(total)}
              </Text>
            ) : null}
            {list.length === 0 ? (
              <ReportEmpty py="lg" testId={testIds.empty}>
                {texts.empty}
              </ReportEmpty>
            ) : (
              <ReportTable caption={caption} nativeCaption scroll={{ minWidth }} striped verticalSpacing="xs" columns={columns}>
                {list.map((row) => (
                  <Table.Tr key={row.patientId} data-testid={testIds.row}>
                    {columns.map((column) => (
                      <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </ReportTable>
            )}
            <Pager
              totalRecords={total}
              pageNumber={page}
              onPage={setPage}
              ariaLabel={texts.pages}
              testId={testIds.pager}
              summary={countAt === 'pager' ? texts.count(total) : undefined}
            />
          </Stack>
        );
      }}
    </ReportState>
  );
}
