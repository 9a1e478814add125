import { Anchor, Badge, Button, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBan } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText, formatDate } from '@/components/ui/date-text';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney, Money } from '@/components/ui/money';
import { PaginationControl } from '@/components/ui/pagination-control';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { CASH_LEDGER_PAGE_SIZE, useCashLedger } from '../api/get-cash-ledger';
import type { CashCollector, CashLedgerEntry } from '../api/types';
import { HeldBadge } from './held-badge';
import { VoidHandoverModal } from './void-handover-modal';

export const LEDGER_LOAD_FAILED = "Failed to load the user's cash";

/** Whose ledger is open, and in which currency (every currency when absent). */
export interface LedgerTarget {
  username: string;
  currency?: string;
}

const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;
const STRUCK = { textDecoration: 'line-through' } as const;

/** "+ KES 500.00" taken in, "− KES 1,200.00" handed over (struck through when voided). */
export function signedMoney(amount: string, currency: string): string {
  const n = Number(amount);
  const sign = n > 0 ? '+ ' : n < 0 ? '− ' : '';
  return `${sign}${formatMoney(Math.abs(n), currency)}`;
}

/**
 * A cash payment: the device and the customer it paid for (links to their pages), Held while it waits off a device,
 * and who entered it when another user did (a clerk entering the collector's receipt).
 */
function PaymentWhat({ e }: { e: CashLedgerEntry }) {
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={500}>
          Cash payment
        </Text>
        {e.payment_status === 'pending' ? (
          <Badge miw="max-content" color="yellow" variant="light" radius="sm" title="Reversed off a device: waiting in Held Payments to be matched">
            Held
          </Badge>
        ) : null}
      </Group>
      <Group gap={6} wrap="wrap">
        {e.serial_number ? (
          <Anchor component={Link} to={paths.app.deviceActivity.getHref(e.serial_number)} size="xs" ff="monospace">
            {e.serial_number}
          </Anchor>
        ) : null}
        {e.customer_id !== null && e.customer_name ? (
          <Anchor component={Link} to={paths.app.customerPaymentDetails.getHref(e.customer_id)} size="xs" style={BREAK_ANYWHERE}>
            {e.customer_name}
          </Anchor>
        ) : null}
      </Group>
      {e.reference ? (
        <Text size="xs" c="dimmed" style={BREAK_ANYWHERE}>
          Ref {e.reference}
        </Text>
      ) : null}
      {e.recorded_by ? (
        <Text size="xs" c="dimmed" style={BREAK_ANYWHERE}>
          Entered by {e.recorded_by}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A handover: to whom, its slip and note; struck through with who voided it and why. */
function HandoverWhat({ e }: { e: CashLedgerEntry }) {
  const voided = e.voided_at !== null;
  return (
    <Stack gap={2} maw={340}>
      <Text size="sm" fw={500} style={voided ? STRUCK : undefined}>
        Handover to {e.received_by ?? '—'}
      </Text>
      {e.reference ? (
        <Text size="xs" c="dimmed" style={{ ...BREAK_ANYWHERE, ...(voided ? STRUCK : {}) }}>
          Ref {e.reference}
        </Text>
      ) : null}
      {e.note ? (
        <Text size="xs" c="dimmed" style={{ ...BREAK_ANYWHERE, whiteSpace: 'pre-wrap' }}>
          {e.note}
        </Text>
      ) : null}
      {voided ? (
        <Text size="xs" c="red" style={BREAK_ANYWHERE}>
          Voided by {e.voided_by ?? '—'}: {e.void_reason ?? '—'}
        </Text>
      ) : null}
    </Stack>
  );
}

function columnsFor(manage: boolean, onVoid: (e: CashLedgerEntry) => void): Column<CashLedgerEntry>[] {
  const columns: Column<CashLedgerEntry>[] = [
    { key: 'at', header: 'Date', render: (e) => <DateText value={e.at} withTime /> },
    { key: 'what', header: 'What', render: (e) => (e.kind === 'payment' ? <PaymentWhat e={e} /> : <HandoverWhat e={e} />) },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      render: (e) => (
        <Text
          span
          size="sm"
          c={e.kind === 'payment' ? 'teal' : undefined}
          style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ...(e.voided_at ? STRUCK : {}) }}
        >
          {signedMoney(e.amount, e.currency)}
        </Text>
      ),
    },
    { key: 'after', header: 'In Hand After', align: 'right', render: (e) => <Money amount={e.in_hand_after} currency={e.currency} size="sm" /> },
  ];
  if (!manage) return columns;
  return [
    ...columns,
    {
      key: 'actions',
      header: '',
      align: 'right',
      render: (e) =>
        e.kind === 'handover' && e.voided_at === null ? (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            leftSection={<IconBan size={14} />}
            aria-label={`Void the handover of ${formatDate(e.at, true)}`}
            onClick={() => onVoid(e)}
          >
            Void
          </Button>
        ) : null,
    },
  ];
}

/** What the collector holds in one currency, since when, and what they collected and handed over in all. */
function Balance({ b }: { b: CashCollector }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      <LabelledFigure label="In Hand">
        <Group gap={6}>
          <Money amount={b.in_hand} currency={b.currency} fw={700} />
          <HeldBadge collector={b} />
        </Group>
      </LabelledFigure>
      <LabelledFigure label="Held Since">
        <DateText value={b.held_since} withTime fw={600} />
      </LabelledFigure>
      <LabelledFigure label="Collected">
        <Money amount={b.collected} currency={b.currency} />
      </LabelledFigure>
      <LabelledFigure label="Handed Over">
        <Money amount={b.handed_over} currency={b.currency} />
      </LabelledFigure>
    </SimpleGrid>
  );
}

/** One collector's balances and entries, a page at a time. Mounted afresh for each collector: page 1. */
function CashLedger({ target, manage }: { target: LedgerTarget; manage: boolean }) {
  const [page, setPage] = useState(1);
  const [voiding, setVoiding] = useState<CashLedgerEntry | null>(null);
  const ledger = useCashLedger(target.username, { page, limit: CASH_LEDGER_PAGE_SIZE, currency: target.currency });
  const balances = ledger.data?.balances ?? [];
  return (
    <Stack gap="md">
      {balances.length ? (
        <Stack gap="sm" role="region" aria-label="Balances">
          {balances.map((b) => (
            <Balance key={b.currency} b={b} />
          ))}
        </Stack>
      ) : null}
      <div>
        <DataTable
          caption="Cash ledger"
          columns={columnsFor(manage, setVoiding)}
          rows={ledger.data?.data}
          rowKey={(e) => `${e.kind}:${e.id}`}
          loading={ledger.isPending}
          error={ledger.isError ? errorMessage(ledger.error, LEDGER_LOAD_FAILED) : null}
          onRetry={() => void ledger.refetch()}
          emptyText="No cash payments or handovers"
          minWidth={680}
        />
        <PaginationControl page={page} total={ledger.data?.pagination.total ?? 0} pageSize={CASH_LEDGER_PAGE_SIZE} onPageChange={setPage} itemLabel="entries" />
      </div>
      {manage ? <VoidHandoverModal handover={voiding} collector={target.username} onClose={() => setVoiding(null)} /> : null}
    </Stack>
  );
}

/**
 * A collector's ledger: the cash payments they recorded and the handovers of
 * it, newest first, with what they held after each. Owners and admins void a
 * handover recorded by mistake from here.
 */
export function CashLedgerDrawer({ target, manage, onClose }: { target: LedgerTarget | null; manage: boolean; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer opened={target !== null} onClose={onClose} position="right" size={phone ? '100%' : 'xl'} title={target ? `${target.username}'s cash` : ''}>
      {target ? <CashLedger key={`${target.username}:${target.currency ?? ''}`} target={target} manage={manage} /> : null}
    </Drawer>
  );
}
