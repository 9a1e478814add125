import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type Column } from './data-table';

interface Row {
  id: number;
  name: string;
}
const columns: Column<Row>[] = [{ key: 'name', header: 'Customer Name', render: (r) => r.name }];
const wrap = (ui: ReactNode) => render(<MantineProvider env="test">{ui}</MantineProvider>);

describe('DataTable', () => {
  it('renders rows under their headers', () => {
    wrap(<DataTable columns={columns} rows={[{ id: 1, name: 'Amina' }]} rowKey={(r) => r.id} />);
    expect(screen.getByRole('columnheader', { name: 'Customer Name' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Amina' })).toBeInTheDocument();
  });

  it('shows a spinner while loading, not the empty text', () => {
    wrap(<DataTable columns={columns} rows={undefined} rowKey={(r) => r.id} loading emptyText="No customers found" />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByText('No customers found')).not.toBeInTheDocument();
  });

  it('shows the empty text when there are no rows', () => {
    wrap(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="No customers found matching your search" />);
    expect(screen.getByText('No customers found matching your search')).toBeInTheDocument();
  });

  it.each([
    ['loading', { loading: true }, () => screen.getByRole('status', { name: 'Loading' })],
    ['empty', { emptyText: 'No products found' }, () => screen.getByText('No products found')],
    ['failed', { error: 'Failed to fetch products', onRetry: () => {} }, () => screen.getByRole('alert')],
  ] as const)('keeps the %s state out of the wide scrolling table, so a phone shows it in view', (_, state, find) => {
    wrap(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} minWidth={980} caption="Products" {...state} />);
    const table = screen.getByRole('table', { name: 'Products' });
    expect(screen.getByRole('columnheader', { name: 'Customer Name' })).toBeInTheDocument();
    expect(table).not.toContainElement(find());
  });

  it('shows a load failure with Retry', async () => {
    const onRetry = vi.fn();
    wrap(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} error="Failed to load customers" onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load customers');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
