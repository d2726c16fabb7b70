import {
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  type MantineSpacing,
  type TableTdProps,
  type TableThProps,
} from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { Fragment, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { errorText } from '../lib/error-text';
import { i18n } from '../lib/i18n';
import { ErrorAlert } from './error-alert';

/** The part of a TanStack query result a list page reads. */
export type QueryLike<D> = { isError: boolean; error: unknown; data: D | undefined; refetch: () => unknown };

/**
 * Loading and failure of a query, the same on every list page: a labelled spinner, or the error with a
 * retry button. The children draw the data once it is there.
 */
export function QueryState<D>({
  query,
  retryLabel,
  errorTestId,
  errorPrefix,
  retryIcon = false,
  loadingLabel,
  keepDataOnError = false,
  children,
}: {
  query: QueryLike<D>;
  retryLabel: string;
  errorTestId?: string;
  /** Said before the server's message ("The list could not be loaded."). */
  errorPrefix?: string;
  retryIcon?: boolean;
  /** Defaults to the common "Loading…". */
  loadingLabel?: string;
  /** A failed refetch leaves the rows already shown in place instead of replacing them by the error. */
  keepDataOnError?: boolean;
  children: (data: NonNullable<D>) => ReactNode;
}) {
  const { t } = useTranslation('common');
  if (query.isError && !(keepDataOnError && query.data)) {
    const message = errorText(query.error);
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId={errorTestId}>
          {errorPrefix ? (
            <>
              {errorPrefix} {message}
            </>
          ) : (
            message
          )}
        </ErrorAlert>
        <Button
          variant="light"
          leftSection={retryIcon ? <IconRefresh size={16} aria-hidden /> : undefined}
          onClick={() => void query.refetch()}
        >
          {retryLabel}
        </Button>
      </Stack>
    );
  }
  if (!query.data) {
    return (
      <Center py="xl">
        <Loader aria-label={loadingLabel ?? t('loading')} />
      </Center>
    );
  }
  return <>{children(query.data)}</>;
}

/** The dimmed line a list shows when nothing matches. */
export function EmptyText({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <Text c="dimmed" py="lg" ta="center" data-testid={testId}>
      {children}
    </Text>
  );
}

export type DataColumn<T> = {
  key: string;
  header?: ReactNode;
  /** Names a header cell that shows nothing (the row actions). */
  headerLabel?: string;
  /** A whole header cell of the page's own (a sort button) in place of header and headerLabel. */
  th?: ReactNode;
  thProps?: TableThProps;
  cell: (row: T) => ReactNode;
  tdProps?: TableTdProps;
};

/**
 * The striped, scrollable table of a list page, or its dimmed "nothing here" line. Columns that do not
 * apply to the user (`false`/`null`) are left out of header and rows alike.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  minWidth,
  testId,
  ariaLabel,
  highlightOnHover = true,
  verticalSpacing = 'sm',
  emptyText,
  emptyTestId,
  footer,
}: {
  rows: readonly T[];
  columns: readonly (DataColumn<T> | false | null)[];
  rowKey: (row: T) => Key;
  rowTestId: string;
  minWidth: number;
  testId?: string;
  ariaLabel?: string;
  highlightOnHover?: boolean;
  verticalSpacing?: MantineSpacing;
  /** Without it an empty list still shows the header row. */
  emptyText?: ReactNode;
  emptyTestId?: string;
  /** Drawn under the table (range and pages) when there are rows. */
  footer?: ReactNode;
}) {
  if (rows.length === 0 && emptyText !== undefined) return <EmptyText testId={emptyTestId}>{emptyText}</EmptyText>;
  const shown = columns.filter((column): column is DataColumn<T> => Boolean(column));
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        striped
        highlightOnHover={highlightOnHover}
        verticalSpacing={verticalSpacing}
        aria-label={ariaLabel}
        data-testid={testId}
      >
        <Table.Thead>
          <Table.Tr>
            {shown.map((column) =>
              column.th !== undefined ? (
                <Fragment key={column.key}>{column.th}</Fragment>
              ) : (
                <Table.Th key={column.key} scope="col" aria-label={column.headerLabel} {...column.thProps}>
                  {column.header}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
              {shown.map((column) => (
                <Table.Td key={column.key} {...column.tdProps}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return footer ? (
    <Stack gap="md">
      {table}
      {footer}
    </Stack>
  ) : (
    table
  );
}

type PageControl = 'first' | 'previous' | 'next' | 'last';

/**
 * Page buttons of a paged list (page numbers from 0). With a summary ("16–30 of 42") the row always
 * shows, the buttons only when there is more than one page; without one, nothing shows for one page.
 */
export function Pager({
  totalRecords,
  pageSize = PAGE_SIZE_DEFAULT,
  pageNumber,
  onPage,
  ariaLabel,
  testId,
  summary,
  summaryTestId,
  justify = 'center',
  totalExact = true,
  onCountAll,
}: {
  totalRecords: number;
  pageSize?: number;
  pageNumber: number;
  onPage: (pageNumber: number) => void;
  ariaLabel?: string;
  testId?: string;
  summary?: ReactNode;
  summaryTestId?: string;
  justify?: 'center' | 'flex-end';
  /** False when `totalRecords` is a lower bound ("more than 10,000"); the pages shown stop there. */
  totalExact?: boolean;
  onCountAll?: () => void;
}) {
  const { t } = useTranslation('common');
  const pages = Math.max(1, Math.ceil(totalRecords / pageSize));
  if (pages <= 1 && summary === undefined) return null;
  return (
    <Group justify={summary === undefined ? justify : 'space-between'}>
      {summary === undefined ? null : (
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid={summaryTestId}>
            {summary}
          </Text>
          {!totalExact && onCountAll ? <CountAllButton onClick={onCountAll} /> : null}
        </Group>
      )}
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={pageNumber + 1}
          onChange={(value) => onPage(value - 1)}
          aria-label={ariaLabel}
          // Every page button has a name in the user's language (WCAG 4.1.2).
          getControlProps={(control: PageControl) => ({ 'aria-label': t(`pager.controls.${control}`) })}
          getItemProps={(page) => ({ 'aria-label': t('pager.page', { number: page }) })}
          data-testid={testId}
        />
      ) : null}
    </Group>
  );
}

/** "16–30 of 42" (or "of more than 10,000") for a page of `rowsOnPage` rows, in the user's language. */
export function rangeText(pageNumber: number, rowsOnPage: number, totalRecords: number, totalExact: boolean): string {
  const first = pageNumber * PAGE_SIZE_DEFAULT + 1;
  return i18n.t('common:pager.range', { first, last: first + rowsOnPage - 1, total: totalWords(totalRecords, totalExact) });
}

/** Asks the server for the exact number of matches once a list has answered "more than". */
function CountAllButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Button variant="subtle" size="compact-sm" onClick={onClick} data-testid="count-all">
      {t('pager.countAll')}
    </Button>
  );
}

/** A count written the way the user's language writes numbers (10,000 / 10.000). */
export const formatCount = (count: number) => count.toLocaleString(i18n.language === 'es' ? 'es-ES' : 'en-US');

/** A list's total as words: the number, or "more than" it when the server stopped counting. */
function totalWords(totalRecords: number, totalExact: boolean | undefined): string {
  return totalExact === false ? i18n.t('common:pager.moreThan', { total: formatCount(totalRecords) }) : formatCount(totalRecords);
}

/**
 * A paged query's results under its filters: the live count of matches beside an action (export), the
 * rows, and the pages.
 */
export function PagedResults<T>({
  query,
  pageNumber,
  onPage,
  errorTestId,
  retryLabel,
  totalText,
  totalTestId,
  pagesLabel,
  action,
  onCountAll,
  children,
}: {
  query: QueryLike<{ totalRecords: number; totalExact?: boolean; data: T[] }>;
  pageNumber: number;
  onPage: (pageNumber: number) => void;
  errorTestId: string;
  retryLabel: string;
  /** The total as a sentence: `exact` is false when `count` is a lower bound. */
  totalText: (count: number, exact: boolean) => string;
  onCountAll?: () => void;
  totalTestId: string;
  pagesLabel: string;
  action: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <QueryState query={query} errorTestId={errorTestId} retryLabel={retryLabel} retryIcon>
      {({ totalRecords, totalExact = true, data }) => (
        <Stack gap="sm">
          <Group justify="space-between">
            <Group gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite" data-testid={totalTestId}>
                {totalText(totalRecords, totalExact)}
              </Text>
              {!totalExact && onCountAll ? <CountAllButton onClick={onCountAll} /> : null}
            </Group>
            {action}
          </Group>
          {children(data)}
          <Pager totalRecords={totalRecords} pageNumber={pageNumber} onPage={onPage} ariaLabel={pagesLabel} />
        </Stack>
      )}
    </QueryState>
  );
}
