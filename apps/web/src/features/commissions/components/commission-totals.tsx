import { SimpleGrid } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconCoins } from '@tabler/icons-react';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import type { CommissionMonth } from '../api/types';

const agents = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'agent' : 'agents'}`;

/** The month's Commission, what was Paid of it and what is still Unpaid, with how many agents each. */
export function CommissionTotals({ month, currency, loading }: { month: CommissionMonth | undefined; currency: string | null; loading: boolean }) {
  const totals = month?.totals;
  const money = (amount: string | undefined) => (amount === undefined ? '—' : <StatMoney amount={amount} currency={currency} />);
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md" mb="lg">
      <StatCard
        label="Commission"
        loading={loading}
        color="blue"
        icon={<IconCoins size={18} />}
        value={money(totals?.commission)}
        hint={month ? `Reckoned now for ${agents(month.data.length)}` : undefined}
      />
      <StatCard
        label="Paid"
        loading={loading}
        color="teal"
        icon={<IconCircleCheck size={18} />}
        value={money(totals?.paid)}
        hint={totals ? `${agents(totals.paid_count)} paid` : undefined}
      />
      <StatCard
        label="Unpaid"
        loading={loading}
        color={totals && totals.unpaid_count > 0 ? 'orange' : 'gray'}
        icon={<IconClockHour4 size={18} />}
        value={money(totals?.unpaid)}
        hint={totals ? `${agents(totals.unpaid_count)} to pay` : undefined}
      />
    </SimpleGrid>
  );
}
