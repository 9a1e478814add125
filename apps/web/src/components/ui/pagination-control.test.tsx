import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pageItems, PaginationControl } from './pagination-control';

function renderControl(props: { page: number; total: number; pageSize?: number }) {
  const onPageChange = vi.fn();
  const view = render(
    <MantineProvider>
      <PaginationControl page={props.page} total={props.total} pageSize={props.pageSize ?? 10} onPageChange={onPageChange} />
    </MantineProvider>,
  );
  return { ...view, onPageChange };
}

const pageButtons = () => screen.queryAllByRole('button', { name: /^Page \d+$/ }).map((b) => b.textContent);

describe('pageItems', () => {
  it('lists every page when there are 5 or fewer', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
    expect(pageItems(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows a window with ellipses beyond 5 pages', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
    expect(pageItems(3, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
    expect(pageItems(4, 10)).toEqual([1, 'ellipsis-start', 3, 4, 5, 'ellipsis-end', 10]);
    expect(pageItems(7, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 'ellipsis-end', 10]);
    expect(pageItems(8, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
    expect(pageItems(10, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
    expect(pageItems(3, 6)).toEqual([1, 2, 3, 4, 'ellipsis-end', 6]);
    expect(pageItems(4, 6)).toEqual([1, 'ellipsis-start', 3, 4, 5, 6]);
  });

  it('clamps an out-of-range page', () => {
    expect(pageItems(99, 8)).toEqual([1, 'ellipsis-start', 5, 6, 7, 8]);
    expect(pageItems(0, 8)).toEqual([1, 2, 3, 4, 'ellipsis-end', 8]);
  });
});

describe('PaginationControl', () => {
  it('renders nothing when everything fits on one page', () => {
    const { container } = renderControl({ page: 1, total: 10 });
    expect(container.querySelector('nav')).toBeNull();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('renders nothing for an empty list', () => {
    renderControl({ page: 1, total: 0 });
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });

  it("shows every page of a short list and 'Showing X to Y of Z items'", () => {
    renderControl({ page: 2, total: 45 });
    expect(pageButtons()).toEqual(['1', '2', '3', '4', '5']);
    expect(screen.getByText('Showing 11 to 20 of 45 items')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText('…')).not.toBeInTheDocument();
  });

  it('shows a window with ellipses on a long list, and the last page partly filled', () => {
    renderControl({ page: 12, total: 123 });
    expect(pageButtons()).toEqual(['1', '10', '11', '12', '13']);
    expect(screen.getAllByText('…')).toHaveLength(1);
    expect(screen.getByText('Showing 111 to 120 of 123 items')).toBeInTheDocument();
  });

  it('shows two ellipses in the middle of a long list', () => {
    renderControl({ page: 6, total: 200 });
    expect(pageButtons()).toEqual(['1', '5', '6', '7', '20']);
    expect(screen.getAllByText('…')).toHaveLength(2);
  });

  it('moves with Previous, Next and page numbers; the ends are disabled', async () => {
    const user = userEvent.setup();
    const { onPageChange, unmount } = renderControl({ page: 1, total: 30 });
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange.mock.calls).toEqual([[2], [3]]);
    unmount();

    const last = renderControl({ page: 3, total: 30 });
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('Showing 21 to 30 of 30 items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(last.onPageChange).toHaveBeenCalledWith(2);
  });
});
