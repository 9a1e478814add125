import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCashBanknote, IconList } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import { RoleBadge } from '@/components/ui/role-badge';
import type { CashCollector } from '../api/types';
import { CashLedgerDrawer, type LedgerTarget } from './cash-ledger-drawer';
import { HeldBadge } from './held-badge';
import { RecordHandoverModal } from './record-handover-modal';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The username, their role now, or that they are no longer a user (their cash still counts). */
function UserCell({ c }: { c: CashCollector }) {
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {c.username}
      </Text>
      {c.role === null ? (
        <Text size="xs" c="dimmed" fs="italic">
          no longer a user
        </Text>
      ) : (
        <Group gap={4} wrap="nowrap">
          <RoleBadge role={c.role} />
          {c.is_active === false ? (
            <Badge miw="max-content" color="gray" variant="outline" radius="sm">
              Inactive
            </Badge>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}

/** An amount with how many payments or handovers made it. */
function CountedMoney({ amount, currency, n, one, many }: { amount: string; currency: string; n: number; one: string; many: string }) {
  return (
    <Stack gap={0} align="flex-end">
      <Money amount={amount} currency={currency} size="sm" />
      <Text size="xs" c="dimmed" style={NOWRAP}>
        {count(n, one, many)}
      </Text>
    </Stack>
  );
}

/** "baraka", or "baraka (EUR)" when they hold cash in more than one currency: the buttons of each row say whose. */
const whoOf = (c: CashCollector, rows: readonly CashCollector[]) =>
  rows.filter((r) => r.username === c.username).length > 1 ? `${c.username} (${c.currency})` : c.username;

function columnsFor(
  rows: readonly CashCollector[],
  manage: boolean,
  onLedger: (c: CashCollector) => void,
  onHandover: (c: CashCollector) => void,
): Column<CashCollector>[] {
  return [
    { key: 'user', header: 'User', render: (c) => <UserCell c={c} /> },
    {
      key: 'in_hand',
      header: 'In Hand',
      align: 'right',
      render: (c) => (
        <Stack gap={4} align="flex-end">
          <Money amount={c.in_hand} currency={c.currency} size="sm" fw={700} />
          <HeldBadge collector={c} />
        </Stack>
      ),
    },
    {
      key: 'collected',
      header: 'Collected',
      align: 'right',
      render: (c) => <CountedMoney amount={c.collected} currency={c.currency} n={c.collected_count} one="payment" many="payments" />,
    },
    {
      key: 'handed_over',
      header: 'Handed Over',
      align: 'right',
      render: (c) => <CountedMoney amount={c.handed_over} currency={c.currency} n={c.handover_count} one="handover" many="handovers" />,
    },
    // The day only: the table fits a laptop's width with both buttons; the ledger has the times.
    { key: 'last_collected', header: 'Last Cash Payment', render: (c) => <DateText value={c.last_collected_at} /> },
    { key: 'last_handover', header: 'Last Handover', render: (c) => <DateText value={c.last_handover_at} /> },
    {
      key: 'actions',
      header: '',
      align: 'right',
      render: (c) => (
        <Stack gap={4} align="stretch">
          <Button size="compact-sm" variant="subtle" leftSection={<IconList size={14} />} aria-label={`Ledger of ${whoOf(c, rows)}`} onClick={() => onLedger(c)}>
            Ledger
          </Button>
          {manage ? (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconCashBanknote size={14} />}
              aria-label={`Record Handover by ${whoOf(c, rows)}`}
              // Nothing held, nothing to hand over.
              disabled={Number(c.in_hand) <= 0}
              onClick={() => onHandover(c)}
            >
              Record Handover
            </Button>
          ) : null}
        </Stack>
      ),
    },
  ];
}

/**
 * What each collector holds, the most first, with their Ledger (a drawer) and,
 * for owners and admins, Record Handover (a modal).
 */
export function CollectorsTable({
  rows,
  manage,
  loading,
  error,
  onRetry,
  ledgerOf,
  onLedger,
}: {
  rows: CashCollector[] | undefined;
  manage: boolean;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** Whose ledger is open (the page keeps it in its address, so a notification can lead to it). */
  ledgerOf: LedgerTarget | null;
  onLedger: (target: LedgerTarget | null) => void;
}) {
  const [handoverOf, setHandoverOf] = useState<CashCollector | null>(null);
  const list = rows ?? [];
  // A collector holding cash in several currencies has a row (and a ledger) for each.
  const openLedger = (c: CashCollector) =>
    onLedger({ username: c.username, currency: list.filter((r) => r.username === c.username).length > 1 ? c.currency : undefined });
  return (
    <>
      <DataTable
        caption="Cash by user"
        columns={columnsFor(list, manage, openLedger, setHandoverOf)}
        rows={rows}
        rowKey={(c) => `${c.username}:${c.currency}`}
        loading={loading}
        error={error}
        onRetry={onRetry}
        emptyText="No cash payments recorded yet."
        emptyHint="A payment recorded as cash is listed here under the user who recorded it, until they hand it over."
        minWidth={960}
      />
      <CashLedgerDrawer target={ledgerOf} manage={manage} onClose={() => onLedger(null)} />
      {manage ? <RecordHandoverModal collector={handoverOf} onClose={() => setHandoverOf(null)} /> : null}
    </>
  );
}
