import { Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconBan, IconCircleCheck } from '@tabler/icons-react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatMoney, Money } from '@/components/ui/money';
import { NO_AGENT, type CommissionAgent } from '../api/types';
import { CommissionStatusCell, signedMoney } from './commission-status';

const NUMBER = { fontVariantNumeric: 'tabular-nums' } as const;

/** The commission reckoned now; for an agent paid, and paid a different amount, the difference still owed (or paid too much). */
function CommissionCell({ row, currency }: { row: CommissionAgent; currency: string | null }) {
  return (
    <Stack gap={2} align="flex-end">
      <Money amount={row.commission} currency={currency} size="sm" fw={700} />
      {row.payout && row.status === 'paid' && row.difference !== null ? (
        <Tooltip
          label={`${formatMoney(row.payout.amount, currency)} was paid. A payment reversed or recorded late, or the commission settings changed since, make the commission ${formatMoney(row.commission, currency)} now.`}
          multiline
          maw={320}
          withArrow
        >
          <Text size="xs" c="orange" style={{ whiteSpace: 'nowrap' }}>
            Reckoned now: {signedMoney(row.difference, currency)}
          </Text>
        </Tooltip>
      ) : null}
    </Stack>
  );
}

export interface AgentActions {
  /** Owners and admins pay and void; the month is over: its commissions can be paid. */
  payable: boolean;
  onHistory: (agent: string) => void;
  onMarkPaid: (row: CommissionAgent) => void;
  onVoid: (row: CommissionAgent) => void;
}

function columnsFor(currency: string | null, a: AgentActions): Column<CommissionAgent>[] {
  return [
    {
      key: 'agent',
      header: 'Agent',
      render: (r) => (
        <Anchor component="button" type="button" size="sm" fw={500} ta="left" style={{ overflowWrap: 'anywhere' }} aria-label={`Payout history of ${r.agent}`} onClick={() => a.onHistory(r.agent)}>
          {r.agent}
        </Anchor>
      ),
    },
    { key: 'devices', header: 'Devices Given', align: 'right', render: (r) => <Text span size="sm" style={NUMBER}>{r.devices_given.toLocaleString()}</Text> },
    { key: 'payments', header: 'Payments', align: 'right', render: (r) => <Text span size="sm" style={NUMBER}>{r.payments.toLocaleString()}</Text> },
    { key: 'revenue', header: 'Collected', align: 'right', render: (r) => <Money amount={r.revenue} currency={currency} size="sm" /> },
    { key: 'commission', header: 'Commission', align: 'right', render: (r) => <CommissionCell row={r} currency={currency} /> },
    { key: 'status', header: 'Status', render: (r) => <CommissionStatusCell row={r} currency={currency} /> },
    {
      key: 'actions',
      header: '',
      align: 'right',
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {a.payable && r.status === 'unpaid' && r.agent !== NO_AGENT ? (
            <Button size="compact-sm" variant="light" leftSection={<IconCircleCheck size={14} />} aria-label={`Mark Paid: ${r.agent}`} onClick={() => a.onMarkPaid(r)}>
              Mark Paid
            </Button>
          ) : null}
          {r.status === 'paid' && r.payout ? (
            <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconBan size={14} />} aria-label={`Void the payout of ${r.agent}`} onClick={() => a.onVoid(r)}>
              Void
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];
}

/**
 * Every agent of the month, the most commission first: what their customers
 * were given and paid, the commission it makes, and whether it was paid, with
 * Mark Paid (once the month is over) and Void.
 */
export function CommissionAgentsTable({
  rows,
  currency,
  loading,
  error,
  onRetry,
  emptyText,
  actions,
}: {
  rows: CommissionAgent[] | undefined;
  currency: string | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  emptyText: string;
  actions: AgentActions;
}) {
  return (
    <DataTable
      caption="Commissions by agent"
      columns={columnsFor(currency, actions)}
      rows={rows}
      rowKey={(r) => r.agent}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={emptyText}
      emptyHint="An agent is listed once a device is given to one of their customers, or one of their customers pays."
      minWidth={900}
    />
  );
}
