import { Group, Radio, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TableState } from '@/components/ui/data-table';
import { PaginationControl } from '@/components/ui/pagination-control';
import { ONBOARDING_PAGE_SIZE } from '../api/constants';

/**
 * A paged list of choices (customers, devices, templates) with the usual
 * loading, error-with-Retry and empty states; one can be picked.
 */
export function OptionList<T>({
  label,
  options,
  total,
  page,
  onPageChange,
  getKey,
  getLabel,
  renderOption,
  selectedKey,
  onSelect,
  loading,
  error,
  onRetry,
  emptyText,
  itemLabel,
}: {
  label: string;
  options: T[] | undefined;
  total: number;
  page: number;
  onPageChange: (page: number) => void;
  getKey: (option: T) => string;
  getLabel: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  selectedKey: string | null;
  onSelect: (option: T) => void;
  loading: boolean;
  error: string | null;
  onRetry?: () => void;
  emptyText: string;
  itemLabel: string;
}) {
  const list = options ?? [];
  const state = <TableState loading={loading} error={error} onRetry={onRetry} emptyText={emptyText} isEmpty={list.length === 0} />;
  if (loading || error || list.length === 0) return state;
  return (
    <>
      <Radio.Group
        value={selectedKey}
        onChange={(key) => {
          const hit = list.find((o) => getKey(o) === key);
          if (hit) onSelect(hit);
        }}
        aria-label={label}
      >
        <Stack gap={6}>
          {list.map((option) => (
            <Radio.Card key={getKey(option)} value={getKey(option)} radius="md" p="sm" aria-label={getLabel(option)}>
              <Group wrap="nowrap" gap="sm" align="flex-start">
                <Radio.Indicator mt={2} />
                <div style={{ minWidth: 0, flex: 1 }}>{renderOption(option)}</div>
              </Group>
            </Radio.Card>
          ))}
        </Stack>
      </Radio.Group>
      <PaginationControl page={page} total={total} pageSize={ONBOARDING_PAGE_SIZE} onPageChange={onPageChange} itemLabel={itemLabel} />
    </>
  );
}

export function OptionText({ title, detail }: { title: ReactNode; detail?: ReactNode }) {
  return (
    <>
      <Text size="sm" fw={600} truncate>
        {title}
      </Text>
      {detail ? (
        <Text size="xs" c="dimmed" truncate>
          {detail}
        </Text>
      ) : null}
    </>
  );
}
