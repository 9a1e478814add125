import { Anchor, Card, Group, Select, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconTruckDelivery } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { NOT_PLACED, useLocationOptions } from '../api/get-stock-locations';
import { MOVEMENTS_PAGE_SIZE, useStockMovements } from '../api/get-stock-movements';
import type { StockMovement } from '../api/types';

const ALL_LOCATIONS = 'all';

/** A place a device left or reached; null is none. */
function Place({ name }: { name: string | null }) {
  return name ? (
    <Text span size="sm">
      {name}
    </Text>
  ) : (
    <Text span size="sm" c="dimmed" fs="italic" style={{ whiteSpace: 'nowrap' }}>
      {NOT_PLACED.label}
    </Text>
  );
}

function FromTo({ movement }: { movement: StockMovement }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Place name={movement.from_location} />
      <IconArrowRight size={14} aria-label="to" color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
      <Place name={movement.to_location} />
    </Group>
  );
}

/** One place's movements, to or from it, or every place's. */
function LocationFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const options = useLocationOptions();
  return (
    <Select
      aria-label="Filter movements by location"
      w={220}
      allowDeselect={false}
      value={value}
      onChange={(v) => onChange(v ?? ALL_LOCATIONS)}
      data={[{ value: ALL_LOCATIONS, label: 'All locations' }, ...options]}
    />
  );
}

function columnsFor(oneDevice: boolean): Column<StockMovement>[] {
  return [
    { key: 'when', header: 'When', render: (m) => <DateText value={m.moved_at} withTime /> },
    ...(oneDevice
      ? []
      : [
          {
            key: 'serial',
            header: 'Serial Number',
            render: (m: StockMovement) => (
              <Anchor
                component={Link}
                to={paths.app.deviceActivity.getHref(m.serial_number)}
                size="sm"
                ff="monospace"
                fw={600}
                style={{ whiteSpace: 'nowrap' }}
              >
                {m.serial_number}
              </Anchor>
            ),
          },
          { key: 'product', header: 'Product', render: (m: StockMovement) => m.product_name },
        ]),
    { key: 'route', header: 'From → To', render: (m) => <FromTo movement={m} /> },
    { key: 'by', header: 'By', render: (m) => m.moved_by },
    {
      key: 'note',
      header: 'Note',
      render: (m) =>
        m.note ? (
          <Text size="sm" lineClamp={2} maw={320} title={m.note} style={{ overflowWrap: 'anywhere' }}>
            {m.note}
          </Text>
        ) : (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        ),
    },
  ];
}

/**
 * Devices' moves between stock locations, newest first, a page at a time: the
 * organization's (Stock Locations, with a filter on one place) or one
 * device's (its page, serialNumber).
 */
export function StockMovementsCard({ serialNumber }: { serialNumber?: string }) {
  const oneDevice = serialNumber !== undefined;
  const [page, setPage] = useState(1);
  const [place, setPlace] = useState(ALL_LOCATIONS);
  const movements = useStockMovements({
    page,
    limit: MOVEMENTS_PAGE_SIZE,
    ...(oneDevice ? { serial_number: serialNumber } : {}),
    ...(place !== ALL_LOCATIONS ? { location_id: Number(place) } : {}),
  });
  const title = oneDevice ? 'Stock Movements' : 'Recent Movements';
  const filtered = place !== ALL_LOCATIONS;

  return (
    <Card padding="lg" radius="md" mt="lg" role="region" aria-label={title}>
      <Group justify="space-between" align="flex-start" gap="sm" mb="md" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconTruckDelivery size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>{title}</Title>
            <Text size="sm" c="dimmed">
              {oneDevice ? 'Where this device was kept, and who moved it' : 'Devices moved between stock locations, newest first'}
            </Text>
          </div>
        </Group>
        {oneDevice ? null : (
          <LocationFilter
            value={place}
            onChange={(v) => {
              setPlace(v);
              setPage(1);
            }}
          />
        )}
      </Group>
      <DataTable
        caption={title}
        columns={columnsFor(oneDevice)}
        rows={movements.data?.data}
        rowKey={(m) => m.movement_id}
        loading={movements.isPending}
        error={movements.isError ? errorMessage(movements.error, 'Failed to load the movements') : null}
        onRetry={() => void movements.refetch()}
        emptyText={oneDevice ? 'This device has not been moved' : filtered ? 'No movements to or from this location' : 'No movements yet'}
        emptyHint={
          oneDevice
            ? 'Move it with Move when it goes to a shop, a warehouse or an agent.'
            : 'Move devices from Products: tick them, then Move to Location.'
        }
        minWidth={oneDevice ? 640 : 900}
      />
      <PaginationControl page={page} total={movements.data?.total ?? 0} pageSize={MOVEMENTS_PAGE_SIZE} onPageChange={setPage} itemLabel="movements" />
    </Card>
  );
}
