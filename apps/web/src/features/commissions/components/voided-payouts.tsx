import { Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Money } from '@/components/ui/money';
import type { CommissionPayout } from '../api/types';
import { BREAK_ANYWHERE, WhenBy } from './payout-cells';


const columnsFor = (currency: string | null): Column<CommissionPayout>[] => [
  { key: 'agent', header: 'Agent', render: (p) => <Text size="sm" fw={500} style={BREAK_ANYWHERE}>{p.agent}</Text> },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    render: (p) => <Money amount={p.amount} currency={currency} size="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', textDecoration: 'line-through' }} />,
  },
  {
    key: 'paid',
    header: 'Paid',
    render: (p) => <WhenBy at={p.paid_at} by={p.paid_by} extra={p.reference ? ` · Ref ${p.reference}` : ''} />,
  },
  {
    key: 'voided',
    header: 'Voided',
    render: (p) => <WhenBy at={p.voided_at} by={p.voided_by} />,
  },
  { key: 'reason', header: 'Reason', render: (p) => <Text size="sm" maw={280} style={BREAK_ANYWHERE}>{p.void_reason ?? '—'}</Text> },
];

/** The month's payouts voided, newest first, with who voided them and why: they paid nothing, so no total counts them. */
export function VoidedPayouts({ payouts, currency }: { payouts: CommissionPayout[]; currency: string | null }) {
  if (payouts.length === 0) return null;
  return (
    <Card padding="lg" radius="md" mt="lg" role="region" aria-label="Voided payouts">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" color="red" size={40} radius="md" aria-hidden>
          <IconBan size={22} />
        </ThemeIcon>
        <div>
          <Title order={4}>Voided payouts</Title>
          <Text size="sm" c="dimmed">
            Payouts of this month recorded by mistake. They count in no total.
          </Text>
        </div>
      </Group>
      <DataTable caption="Voided payouts" columns={columnsFor(currency)} rows={payouts} rowKey={(p) => p.payout_id} minWidth={760} />
    </Card>
  );
}
