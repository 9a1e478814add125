import { Anchor, Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDiscount } from '@tabler/icons-react';
import type { DeviceDiscount } from '@kidogo/contracts';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText, formatDate } from '@/components/ui/date-text';
import { formatMoney, Money } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useCustomerDiscounts, useDeviceDiscounts } from '../api/get-discounts';

export const DISCOUNTS_LOAD_FAILED = 'Failed to load the discounts';

const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

const columns: Column<DeviceDiscount>[] = [
  { key: 'given', header: 'Given', render: (d) => <DateText value={d.given_at} withTime /> },
  {
    key: 'device',
    header: 'Device',
    render: (d) => (
      <Anchor component={Link} to={paths.app.deviceActivity.getHref(d.serial_number)} size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        {d.serial_number}
      </Anchor>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    render: (d) =>
      d.voided_at ? (
        <Group gap={6} wrap="nowrap" justify="flex-end">
          <Badge miw="max-content" color="gray" variant="light" radius="sm">
            Voided
          </Badge>
          <Money amount={d.amount} currency={d.currency} size="sm" c="dimmed" td="line-through" />
        </Group>
      ) : (
        <Money amount={d.amount} currency={d.currency} size="sm" fw={600} />
      ),
  },
  { key: 'before', header: 'Left Before', align: 'right', render: (d) => <Money amount={d.remaining_before} currency={d.currency} size="sm" /> },
  {
    key: 'after',
    header: 'Left After',
    align: 'right',
    render: (d) => (
      <Group gap={6} wrap="nowrap" justify="flex-end">
        <Money amount={d.remaining_after} currency={d.currency} size="sm" />
        {/* It paid the device off: the unlock code is in the token history, under this count. */}
        {d.unlock_token_count !== null ? (
          <Badge miw="max-content" color="green" variant="light" radius="sm" title={`Unlock code, token count ${d.unlock_token_count}`}>
            Paid off
          </Badge>
        ) : null}
      </Group>
    ),
  },
  {
    key: 'reason',
    header: 'Reason',
    render: (d) => (
      <Stack gap={2} maw={320}>
        <Text size="sm" lineClamp={2} title={d.reason} style={{ overflowWrap: 'anywhere' }}>
          {d.reason}
        </Text>
        {d.voided_at ? (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Voided by {d.voided_by ?? 'someone'} on {formatDate(d.voided_at, true)}: {d.void_reason}
          </Text>
        ) : null}
      </Stack>
    ),
  },
  { key: 'by', header: 'Given By', render: (d) => d.given_by || dash },
  {
    key: 'customer',
    header: 'Customer',
    render: (d) => (
      <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(d.customer_id)} size="sm" fw={600}>
        {d.customer_name}
      </Anchor>
    ),
  },
];

/** Void, on a discount not voided that did not pay the device off (its unlock code cannot be taken back). */
const voidColumn = (onVoid: (d: DeviceDiscount) => void): Column<DeviceDiscount> => ({
  key: 'actions',
  header: 'Actions',
  align: 'right',
  render: (d) =>
    !d.voided_at && d.unlock_token_count === null ? (
      <Button size="compact-xs" variant="subtle" color="red" onClick={() => onVoid(d)} aria-label={`Void discount of ${formatMoney(d.amount, d.currency)}`}>
        Void
      </Button>
    ) : null,
});

/**
 * Discounts given on the device, newest first: only there when there is one
 * (or when they could not be read), with the total on its present account.
 */
export function DiscountsCard({
  serialNumber,
  customerId,
  currency,
  onVoid,
}: {
  /** One device's discounts (its page), or one customer's across their devices (theirs). */
  serialNumber?: string;
  customerId?: number;
  currency: string;
  /** Owners and admins, while the device is not paid off: a Void action on each discount still on its account. */
  onVoid?: (d: DeviceDiscount) => void;
}) {
  const ofDevice = useDeviceDiscounts(serialNumber ?? '', serialNumber !== undefined);
  const ofCustomer = useCustomerDiscounts(customerId ?? 0, serialNumber === undefined && customerId !== undefined);
  const discounts = serialNumber !== undefined ? ofDevice : ofCustomer;
  const rows = discounts.data?.data ?? [];
  // On a customer's page every row is theirs. On a device's page every row is that device, unless its account came
  // from a device a swap replaced, whose discounts came with it: then each row says which device it was given on.
  const sameDevice = serialNumber !== undefined && rows.every((d) => d.serial_number === serialNumber);
  const shown = columns.filter((c) => c.key !== (serialNumber === undefined ? 'customer' : sameDevice ? 'device' : 'customer'));
  const where = serialNumber !== undefined ? 'on the present account' : 'on the accounts they hold now';
  if (discounts.isPending || (!discounts.isError && rows.length === 0)) return null;
  const count = rows.length === 1 ? '1 discount' : `${rows.length.toLocaleString()} discounts`;
  return (
    <Card padding="lg" radius="md" mb="lg" role="region" aria-label="Discounts">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconDiscount size={22} />
        </ThemeIcon>
        <Stack gap={0}>
          <Title order={4}>Discounts</Title>
          <Text size="sm" c="dimmed">
            {discounts.isError
              ? 'Amounts taken off what was left to pay'
              : `${count}: ${formatMoney(discounts.data?.total ?? '0.00', rows[0]?.currency ?? currency)} off ${where}`}
          </Text>
        </Stack>
      </Group>
      <DataTable
        caption="Discounts"
        columns={onVoid ? [...shown, voidColumn(onVoid)] : shown}
        rows={rows}
        rowKey={(d) => d.discount_id}
        error={discounts.isError ? errorMessage(discounts.error, DISCOUNTS_LOAD_FAILED) : null}
        onRetry={() => void discounts.refetch()}
        emptyText="No discounts"
        minWidth={960}
      />
    </Card>
  );
}
