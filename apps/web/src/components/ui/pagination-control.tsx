import { Button, Group, Text } from '@mantine/core';

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Page buttons to show: every page when there are 5 or fewer, otherwise the
 * first and last page around a window on the current one, with ellipses for
 * the gaps: 1 2 3 4 … 10 · 1 … 4 5 6 … 10 · 1 … 7 8 9 10.
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 5) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const page = Math.min(Math.max(current, 1), totalPages);
  if (page <= 3) return [1, 2, 3, 4, 'ellipsis-end', totalPages];
  if (page >= totalPages - 2) return [1, 'ellipsis-start', totalPages - 3, totalPages - 2, totalPages - 1, totalPages];
  return [1, 'ellipsis-start', page - 1, page, page + 1, 'ellipsis-end', totalPages];
}

export interface PaginationControlProps {
  /** 1-based current page. */
  page: number;
  /** Total number of items across all pages. */
  total: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** What the items are called in the summary; default 'items'. */
  itemLabel?: string;
}

/** Previous / page numbers / Next with 'Showing X to Y of Z items'; renders nothing for a single page. */
export function PaginationControl({ page, total, pageSize, onPageChange, itemLabel = 'items' }: PaginationControlProps) {
  const totalPages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (totalPages <= 1) return null;
  const current = Math.min(Math.max(page, 1), totalPages);
  const from = (current - 1) * pageSize + 1;
  const to = Math.min(current * pageSize, total);

  return (
    <Group justify="space-between" align="center" gap="sm" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed">
        Showing {from} to {to} of {total} {itemLabel}
      </Text>
      <Group gap={4} component="nav" aria-label="Pagination">
        <Button
          variant="default"
          size="xs"
          disabled={current <= 1}
          onClick={() => onPageChange(current - 1)}
        >
          Previous
        </Button>
        {pageItems(current, totalPages).map((item) =>
          typeof item === 'number' ? (
            <Button
              key={item}
              size="xs"
              miw={32}
              px={8}
              variant={item === current ? 'filled' : 'default'}
              aria-current={item === current ? 'page' : undefined}
              aria-label={`Page ${item}`}
              onClick={() => item !== current && onPageChange(item)}
            >
              {item}
            </Button>
          ) : (
            <Text key={item} size="sm" c="dimmed" px={4} aria-hidden>
              …
            </Text>
          ),
        )}
        <Button
          variant="default"
          size="xs"
          disabled={current >= totalPages}
          onClick={() => onPageChange(current + 1)}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
}
