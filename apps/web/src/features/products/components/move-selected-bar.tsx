import { Button, Group, Text } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useState } from 'react';
import { devicesText } from '@/features/stock/components/move-devices-modal';
import type { ProductSelection } from './products-table';

export interface ProductSelectionState extends ProductSelection {
  clear: () => void;
}

/** The ticked devices, by serial number. */
export function useProductSelection(): ProductSelectionState {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  return {
    selected,
    onChange: (serials, checked) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const s of serials) {
          if (checked) next.add(s);
          else next.delete(s);
        }
        return next;
      }),
    clear: () => setSelected(new Set()),
  };
}

/** Over the table: how many devices are ticked, and Move to Location for them. */
export function MoveSelectedBar({ selection, onMove }: { selection: ProductSelectionState; onMove: () => void }) {
  const count = selection.selected.size;
  return (
    <Group justify="space-between" align="center" gap="sm" mb="sm" wrap="wrap" role="group" aria-label="Selected devices">
      {count > 0 ? (
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {devicesText(count)} selected
          </Text>
          <Button variant="subtle" size="compact-sm" color="gray" onClick={selection.clear}>
            Clear Selection
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Tick devices in stock to move them to a stock location.
        </Text>
      )}
      <Button variant="light" leftSection={<IconTruckDelivery size={16} />} disabled={count === 0} onClick={onMove}>
        Move to Location
      </Button>
    </Group>
  );
}
