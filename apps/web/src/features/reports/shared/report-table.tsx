import { Table, type TableProps, type TableScrollContainerProps } from '@mantine/core';
import type { ReactNode } from 'react';

type ReportColumn = { key: string; header: ReactNode; align?: 'right'; title?: string };

/**
 * The table shell every report draws its numbers in: a caption, one header row of column headers, the
 * body rows the report gives, and a horizontal scroll below `scroll.minWidth` so narrow screens keep
 * their columns readable. Rows stay the report's own (each names its row header with `scope="row"`).
 */
export function ReportTable({
  caption,
  nativeCaption = false,
  columns,
  scroll,
  testId,
  children,
  ...tableProps
}: {
  caption: ReactNode;
  /**
   * The browser's own caption (above the table, body colour) instead of Mantine's (dimmed, on the
   * table's `captionSide`): the performance and sandbox tables were drawn with it and look that way.
   */
  nativeCaption?: boolean;
  /** No header row when omitted: a table of named rows only. */
  columns?: ReportColumn[];
  scroll?: Omit<TableScrollContainerProps, 'children'>;
  testId?: string;
  /** The body rows (`Table.Tr`). */
  children: ReactNode;
} & Omit<TableProps, 'children' | 'caption'>) {
  const table = (
    <Table data-testid={testId} {...tableProps}>
      {nativeCaption ? <caption>{caption}</caption> : <Table.Caption>{caption}</Table.Caption>}
      {columns ? (
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} scope="col" ta={column.align} title={column.title}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
      ) : null}
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
  return scroll ? <Table.ScrollContainer {...scroll}>{table}</Table.ScrollContainer> : table;
}
