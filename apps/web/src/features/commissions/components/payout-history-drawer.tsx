import { Button, Drawer, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBan } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { Money } from '@/components/ui/money';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { COMMISSION_PAYOUTS_PAGE_SIZE, useCommissionPayouts } from '../api/get-commission-payouts';
import type { CommissionPayout } from '../api/types';
import { monthLabel } from './months';
import { BREAK_ANYWHERE, WhenBy } from './payout-cells';
import { VoidPayoutModal } from './void-payout-modal';

export const HISTORY_LOAD_FAILED = "Failed to load the agent's payouts";

const STRUCK = { textDecoration: 'line-through' } as const;

/** The month paid for; struck through with who voided it and why. */
function MonthCell({ p }: { p: CommissionPayout }) {
  const voided = p.voided_at !== null;
  return (
    <Stack gap={2} maw={260}>
      <Text size="sm" fw={500} style={voided ? STRUCK : undefined}>
        {monthLabel(p.month)}
      </Text>
      {voided ? (
        <Text size="xs" c="red" style={BREAK_ANYWHERE}>
          Voided by {p.voided_by ?? '—'}: {p.void_reason ?? '—'}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The transfer code or receipt, and the note. */
function ReferenceCell({ p }: { p: CommissionPayout }) {
  return (
    <Stack gap={2} maw={240}>
      <Text size="sm" style={{ ...BREAK_ANYWHERE, ...(p.voided_at ? STRUCK : {}) }}>
        {p.reference ?? '—'}
      </Text>
      {p.note ? (
        <Text size="xs" c="dimmed" style={{ ...BREAK_ANYWHERE, whiteSpace: 'pre-wrap' }}>
          {p.note}
        </Text>
      ) : null}
    </Stack>
  );
}

function columnsFor(currency: string | null, onVoid: (p: CommissionPayout) => void): Column<CommissionPayout>[] {
  return [
    { key: 'month', header: 'Month', render: (p) => <MonthCell p={p} /> },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      render: (p) => <Money amount={p.amount} currency={currency} size="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ...(p.voided_at ? STRUCK : {}) }} />,
    },
    { key: 'reference', header: 'Reference', render: (p) => <ReferenceCell p={p} /> },
    {
      key: 'paid',
      header: 'Paid',
      render: (p) => <WhenBy at={p.paid_at} by={p.paid_by} />,
    },
    {
      key: 'actions',
      header: '',
      align: 'right',
      render: (p) =>
        p.voided_at === null ? (
          <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconBan size={14} />} aria-label={`Void the payout for ${monthLabel(p.month)}`} onClick={() => onVoid(p)}>
            Void
          </Button>
        ) : null,
    },
  ];
}

/** One agent's payouts, a page at a time. Mounted afresh for each agent: page 1. */
function PayoutHistory({ agent, currency }: { agent: string; currency: string | null }) {
  const [page, setPage] = useState(1);
  const [voiding, setVoiding] = useState<CommissionPayout | null>(null);
  const history = useCommissionPayouts(agent, { page, limit: COMMISSION_PAYOUTS_PAGE_SIZE });
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="md">
        <LabelledFigure label="Total Paid">{history.data ? <Money amount={history.data.total_paid} currency={currency} fw={700} /> : '—'}</LabelledFigure>
        <LabelledFigure label="Payouts">{history.data ? history.data.pagination.total.toLocaleString() : '—'}</LabelledFigure>
      </SimpleGrid>
      <div>
        <DataTable
          caption="Payout history"
          columns={columnsFor(currency, setVoiding)}
          rows={history.data?.data}
          rowKey={(p) => p.payout_id}
          loading={history.isPending}
          error={history.isError ? errorMessage(history.error, HISTORY_LOAD_FAILED) : null}
          onRetry={() => void history.refetch()}
          emptyText={`No commission paid to ${agent} yet`}
          minWidth={640}
        />
        <PaginationControl
          page={page}
          total={history.data?.pagination.total ?? 0}
          pageSize={COMMISSION_PAYOUTS_PAGE_SIZE}
          onPageChange={setPage}
          itemLabel="payouts"
        />
      </div>
      <VoidPayoutModal payout={voiding} currency={currency} onClose={() => setVoiding(null)} />
    </Stack>
  );
}

/**
 * An agent's payouts across months, newest month first: what was paid, the
 * transfer code, who paid it and when, and the payouts voided, struck through
 * with why. The total leaves the voided ones out.
 */
export function PayoutHistoryDrawer({ agent, currency, onClose }: { agent: string | null; currency: string | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer opened={agent !== null} onClose={onClose} position="right" size={phone ? '100%' : 'xl'} title={agent ? `${agent}'s payouts` : ''}>
      {agent ? <PayoutHistory key={agent} agent={agent} currency={currency} /> : null}
    </Drawer>
  );
}
