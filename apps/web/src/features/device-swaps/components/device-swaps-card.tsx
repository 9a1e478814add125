import { Anchor, Badge, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconArrowsExchange } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText, formatDate } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { DEVICE_SWAPS_PAGE_SIZE, useDeviceSwaps } from '../api/get-device-swaps';
import type { DeviceSwap } from '../api/types';

export const SWAPS_LOAD_FAILED = 'Failed to load the device swaps';

const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

const sameSerial = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();

/** A serial number of a swap: a link to its device's page, except the device whose page this is. */
function Serial({ serial, current }: { serial: string; current?: string }) {
  if (sameSerial(serial, current)) {
    return (
      <Text span size="sm" ff="monospace" fw={600}>
        {serial}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={paths.app.deviceActivity.getHref(serial)} size="sm" ff="monospace" fw={600}>
      {serial}
    </Anchor>
  );
}

/** "Old → New", and under it what became of the old device. */
function SwapCell({ swap, current }: { swap: DeviceSwap; current?: string }) {
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Serial serial={swap.old_serial_number} current={current} />
        <IconArrowRight size={14} aria-label="replaced by" color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
        <Serial serial={swap.new_serial_number} current={current} />
      </Group>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        Old one {swap.old_status === 'retired' ? 'retired' : 'to maintenance'} · {swap.lock_token_count === null ? 'not locked' : 'locked'}
      </Text>
    </Stack>
  );
}

const days = (n: number) => (n === 1 ? '1 day' : `${n.toLocaleString()} days`);

/** Whether the old device was in warranty on the day of the swap, and its end; nothing when its product had none set. */
function WarrantyCell({ swap }: { swap: DeviceSwap }) {
  if (swap.in_warranty === null || swap.warranty_until === null) return null;
  return (
    <Stack gap={2}>
      <Badge miw="max-content" color={swap.in_warranty ? 'green' : 'gray'} variant="light" radius="sm">
        {swap.in_warranty ? 'In warranty' : 'Out of warranty'}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {swap.in_warranty ? 'until' : 'since'} {formatDate(swap.warranty_until)}
      </Text>
    </Stack>
  );
}

function columnsFor(current: string | undefined): Column<DeviceSwap>[] {
  return [
    { key: 'when', header: 'Date', render: (s) => <DateText value={s.swapped_at} withTime /> },
    { key: 'swap', header: 'Old → New', render: (s) => <SwapCell swap={s} current={current} /> },
    // A customer's own page names them already.
    ...(current === undefined
      ? []
      : [
          {
            key: 'customer',
            header: 'Customer',
            render: (s: DeviceSwap) => (
              <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(s.customer_id)} size="sm" fw={600}>
                {s.customer_name}
              </Anchor>
            ),
          },
        ]),
    { key: 'days', header: 'Days Moved', align: 'right', render: (s) => days(s.days_moved) },
    {
      key: 'paid-off',
      header: 'Paid Off',
      render: (s) =>
        s.paid_off ? (
          <Badge miw="max-content" color="green" variant="light" radius="sm">
            Paid off
          </Badge>
        ) : (
          <Text span size="sm" c="dimmed">
            No
          </Text>
        ),
    },
    { key: 'warranty', header: 'Warranty', render: (s) => <WarrantyCell swap={s} /> },
    { key: 'by', header: 'By', render: (s) => s.swapped_by || dash },
    {
      key: 'reason',
      header: 'Reason',
      render: (s) => (
        <Text size="sm" lineClamp={2} maw={320} title={s.reason} style={{ overflowWrap: 'anywhere' }}>
          {s.reason}
        </Text>
      ),
    },
  ];
}

/** One device's swaps, either side of them (its page), or one customer's (theirs). */
export type DeviceSwapsScope = { serialNumber: string } | { customerId: number };

/**
 * The swaps table: when, which device replaced which (linked, but for the
 * page's own device), for whom, what moved, whether the old one was in
 * warranty, by whom and why.
 */
export function DeviceSwapsTable({
  rows,
  serialNumber,
  loading,
  error,
  onRetry,
}: {
  rows: DeviceSwap[] | undefined;
  /** The device whose page this is; none on a customer's page, where the customer column is left out. */
  serialNumber?: string;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  return (
    <DataTable
      caption="Device Swaps"
      columns={columnsFor(serialNumber)}
      rows={rows}
      rowKey={(s) => s.swap_id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText="No device swaps"
      minWidth={serialNumber === undefined ? 800 : 960}
    />
  );
}

/**
 * Device Swaps of one device or one customer, newest first: only there when
 * there is one (a swap is rare), or when they could not be read.
 */
export function DeviceSwapsCard(props: DeviceSwapsScope) {
  const [page, setPage] = useState(1);
  const serialNumber = 'serialNumber' in props ? props.serialNumber : undefined;
  const scope = 'serialNumber' in props ? { serial_number: props.serialNumber } : { customer_id: props.customerId };
  const swaps = useDeviceSwaps({ page, limit: DEVICE_SWAPS_PAGE_SIZE, ...scope });
  const total = swaps.data?.total ?? 0;
  if (swaps.isPending || (!swaps.isError && total === 0)) return null;
  return (
    <Card padding="lg" radius="md" mb="lg" role="region" aria-label="Device Swaps">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconArrowsExchange size={22} />
        </ThemeIcon>
        <div>
          <Title order={4}>Device Swaps</Title>
          <Text size="sm" c="dimmed">
            {swaps.isError ? 'Faulty devices replaced from stock' : `${total === 1 ? '1 swap' : `${total.toLocaleString()} swaps`}: a faulty device replaced from stock, the account going with the customer`}
          </Text>
        </div>
      </Group>
      <DeviceSwapsTable
        rows={swaps.data?.data}
        serialNumber={serialNumber}
        loading={false}
        error={swaps.isError ? errorMessage(swaps.error, SWAPS_LOAD_FAILED) : null}
        onRetry={() => void swaps.refetch()}
      />
      <PaginationControl page={page} total={total} pageSize={DEVICE_SWAPS_PAGE_SIZE} onPageChange={setPage} itemLabel="swaps" />
    </Card>
  );
}
