import { Button, Center, Loader, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import type { Key, ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
}

export interface TableStateProps {
  loading?: boolean;
  /** A load failure: its text, shown with Retry when onRetry is given. */
  error?: string | null;
  onRetry?: () => void;
  /** Shown when there are no rows, e.g. 'No customers found'. */
  emptyText?: ReactNode;
  emptyHint?: ReactNode;
}

/**
 * The one place that decides between loading, error, empty and rows, so every
 * list screen shows them the same way. Returns null when rows should render.
 */
export function TableState({ loading, error, onRetry, emptyText = 'No data found', emptyHint, isEmpty }: TableStateProps & { isEmpty: boolean }) {
  if (loading) {
    return (
      <Center py="xl" role="status" aria-label="Loading">
        <Loader size="sm" />
      </Center>
    );
  }
  if (error) {
    return (
      <Stack align="center" gap="xs" py="xl" role="alert">
        <IconAlertTriangle size={28} color="var(--mantine-color-red-6)" aria-hidden />
        <Text c="red" fw={500} ta="center">
          {error}
        </Text>
        {onRetry ? (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Retry
          </Button>
        ) : null}
      </Stack>
    );
  }
  if (isEmpty) {
    return (
      <Stack align="center" gap={4} py="xl">
        <IconInbox size={28} color="var(--mantine-color-dimmed)" aria-hidden />
        <Text fw={500} ta="center">
          {emptyText}
        </Text>
        {emptyHint ? (
          <Text size="sm" c="dimmed" ta="center">
            {emptyHint}
          </Text>
        ) : null}
      </Stack>
    );
  }
  return null;
}

export interface DataTableProps<T> extends TableStateProps {
  columns: Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => Key;
  /** Accessible name of the table. */
  caption?: string;
  minWidth?: number;
}

/**
 * A Mantine table with the standard loading / error-with-Retry / empty states.
 * The table scrolls sideways when it is wider than the screen (minWidth); the
 * states are drawn under it, at the width of the card, not in a cell of the
 * wide table: on a phone that cell's centre lies off screen and the user saw
 * a blank box.
 */
export function DataTable<T>({ columns, rows, rowKey, caption, minWidth = 640, ...state }: DataTableProps<T>) {
  const list = rows ?? [];
  const showRows = !state.loading && !state.error && list.length > 0;
  return (
    <>
      <ScrollArea type="auto">
        <Table miw={minWidth} striped={showRows} aria-label={caption}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} w={c.width} ta={c.align}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          {showRows ? (
            <Table.Tbody>
              {list.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <Table.Td key={c.key} ta={c.align}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          ) : null}
        </Table>
      </ScrollArea>
      {showRows ? null : <TableState {...state} isEmpty={list.length === 0} />}
    </>
  );
}
