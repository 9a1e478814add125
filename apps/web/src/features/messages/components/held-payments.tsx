import { Badge, Button, Card, Group, Text } from '@mantine/core';
import { IconBan, IconLink } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { HELD_PAYMENT_PAGE_SIZE, useHeldPayments } from '../api/get-held-payments';
import type { MatchTarget, Payment } from '../api/types';

const payer = (p: Payment): string | null => [p.payer_name, p.payer_phone].filter(Boolean).join(' · ') || null;

/**
 * Payments held for staff to match (or reject: refunded, not ours, not
 * real), with why each was held. A held statement row has no message, so
 * the messages table alone cannot reach it.
 */
export function HeldPaymentsCard({
  canMatch,
  onMatch,
  onReject,
}: {
  canMatch: boolean;
  onMatch: (payment: MatchTarget) => void;
  onReject: (payment: MatchTarget) => void;
}) {
  const [page, setPage] = useState(1);
  const held = useHeldPayments((page - 1) * HELD_PAYMENT_PAGE_SIZE);
  const total = held.data?.total ?? 0;
  // The last row of the last page was matched: step back to a page that still has rows.
  const lastPage = Math.max(1, Math.ceil(total / HELD_PAYMENT_PAGE_SIZE));
  if (held.data && !held.isPlaceholderData && page > lastPage) setPage(lastPage);

  const columns: Column<Payment>[] = [
    { key: 'paid', header: 'Paid At', render: (p) => <DateText value={p.paid_at} withTime /> },
    { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Money amount={p.amount} currency={p.currency} size="sm" fw={600} /> },
    {
      key: 'code',
      header: 'Transaction Code',
      render: (p) => (
        <Text size="sm" ff="monospace">
          {p.transaction_code ?? '—'}
        </Text>
      ),
    },
    { key: 'payer', header: 'Payer', render: (p) => <Text size="sm">{payer(p) ?? '—'}</Text> },
    {
      key: 'why',
      header: 'Why Held',
      render: (p) => (
        <Text size="sm" c="dimmed" miw={220} maw={360}>
          {p.hold_reason ?? '—'}
        </Text>
      ),
    },
  ];
  if (canMatch) {
    columns.push({
      key: 'action',
      header: 'Action',
      render: (p) => {
        const target = { payment_id: p.payment_id, amount: p.amount, currency: p.currency, transaction_code: p.transaction_code, from: payer(p) };
        const name = p.transaction_code ?? `payment ${p.payment_id}`;
        return (
          <Group gap={6} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="light"
              color="orange"
              leftSection={<IconLink size={12} />}
              aria-label={`Match ${name}`}
              onClick={() => onMatch(target)}
            >
              Match
            </Button>
            <Button size="compact-xs" variant="subtle" color="red" leftSection={<IconBan size={12} />} aria-label={`Reject ${name}`} onClick={() => onReject(target)}>
              Reject
            </Button>
          </Group>
        );
      },
    });
  }

  return (
    <Card padding="md" radius="md" mb="lg">
      <Group gap="xs" mb="md">
        <Text fw={600}>Held Payments</Text>
        {total > 0 ? (
          <Badge color="orange" variant="light">
            {total}
          </Badge>
        ) : null}
      </Group>
      <DataTable
        caption="Held Payments"
        columns={columns}
        rows={held.data?.data}
        rowKey={(p) => p.payment_id}
        loading={held.isPending}
        error={held.isError ? errorMessage(held.error, 'Failed to fetch held payments') : null}
        onRetry={() => void held.refetch()}
        emptyText="No payments are waiting to be matched."
        minWidth={900}
      />
      <PaginationControl page={page} total={total} pageSize={HELD_PAYMENT_PAGE_SIZE} onPageChange={setPage} itemLabel="payments" />
    </Card>
  );
}
