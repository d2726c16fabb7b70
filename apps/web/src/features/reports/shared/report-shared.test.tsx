import { Table } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render';
import { ReportFilterBar } from './report-filter-bar';
import { ReportState } from './report-state';
import { ReportTable } from './report-table';

const texts = {
  loadFailed: 'The report could not be loaded.',
  retry: 'Try again',
  loading: 'Loading the report',
  errorTestId: 'report-error',
};

describe('report filter bar', () => {
  it('applies its filters from the keyboard: Tab to the button, Enter', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderAt(
      <ReportFilterBar label="Report filters" applyLabel="Apply" applyTestId="demo-apply" onSubmit={onSubmit}>
        <label>
          Provider
          <input name="provider" />
        </label>
      </ReportFilterBar>,
    );
    const form = await screen.findByRole('form', { name: 'Report filters' });
    const user = userEvent.setup();
    await user.tab();
    expect(within(form).getByRole('textbox', { name: 'Provider' })).toHaveFocus();
    await user.tab();
    expect(screen.getByTestId('demo-apply')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

describe('report state', () => {
  it('names its loading state for assistive technology', async () => {
    renderAt(
      <ReportState query={{ isError: false, error: null, data: undefined, refetch: () => undefined }} {...texts}>
        {() => <p>numbers</p>}
      </ReportState>,
    );
    expect(await screen.findByRole('status', { name: 'Loading the report' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('numbers')).not.toBeInTheDocument();
  });

  it('says a report is empty, and shows the numbers otherwise', async () => {
    const empty = { when: (data: number[]) => data.length === 0, text: 'Nothing in this window.', testId: 'report-empty' };
    const { unmount } = renderAt(
      <ReportState
        query={{ isError: false, error: null, data: [] as number[], refetch: () => undefined }}
        {...texts}
        empty={empty}
      >
        {() => <p>numbers</p>}
      </ReportState>,
    );
    expect(await screen.findByTestId('report-empty')).toHaveTextContent('Nothing in this window.');
    expect(screen.queryByText('numbers')).not.toBeInTheDocument();
    unmount();

    renderAt(
      <ReportState query={{ isError: false, error: null, data: [3], refetch: () => undefined }} {...texts} empty={empty}>
        {(data) => <p>numbers {data.join()}</p>}
      </ReportState>,
    );
    expect(await screen.findByText('numbers 3')).toBeInTheDocument();
    expect(screen.queryByTestId('report-empty')).not.toBeInTheDocument();
  });

  it('reports a failure and retries from the keyboard', async () => {
    const refetch = vi.fn();
    renderAt(
      <ReportState query={{ isError: true, error: new Error('Server down'), data: undefined, refetch }} {...texts}>
        {() => <p>numbers</p>}
      </ReportState>,
    );
    expect(await screen.findByTestId('report-error')).toHaveTextContent('The report could not be loaded.');
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('keeps the numbers shown when a refetch fails', async () => {
    renderAt(
      <ReportState query={{ isError: true, error: new Error('Server down'), data: [1], refetch: () => undefined }} {...texts}>
        {() => <p>numbers</p>}
      </ReportState>,
    );
    expect(await screen.findByText('numbers')).toBeInTheDocument();
    expect(screen.queryByTestId('report-error')).not.toBeInTheDocument();
  });
});

describe('report table', () => {
  const rows = (
    <Table.Tr>
      <Table.Th scope="row">Dr. Ortiz</Table.Th>
      <Table.Td>12</Table.Td>
    </Table.Tr>
  );

  it('names the table by its caption and its columns and rows by their headers', async () => {
    renderAt(
      <ReportTable
        caption="Visits by provider"
        testId="visits-table"
        scroll={{ minWidth: 480 }}
        columns={[
          { key: 'provider', header: 'Provider' },
          { key: 'visits', header: 'Visits', align: 'right', title: 'Completed visits' },
        ]}
      >
        {rows}
      </ReportTable>,
    );
    const table = await screen.findByRole('table', { name: 'Visits by provider' });
    expect(table).toHaveAttribute('data-testid', 'visits-table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Provider', 'Visits']);
    expect(headers[1]).toHaveAttribute('title', 'Completed visits');
    expect(within(table).getByRole('rowheader', { name: 'Dr. Ortiz' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: '12' })).toBeInTheDocument();
  });

  it('may have no header row, and the browser caption', async () => {
    renderAt(
      <ReportTable caption="Counts" nativeCaption>
        {rows}
      </ReportTable>,
    );
    const table = await screen.findByRole('table', { name: 'Counts' });
    expect(within(table).queryByRole('columnheader')).not.toBeInTheDocument();
    expect(table.querySelector('caption')).not.toHaveAttribute('data-side');
  });
});
