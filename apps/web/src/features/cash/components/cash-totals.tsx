import { SimpleGrid } from '@mantine/core';
import { IconAlertTriangle, IconBuildingBank, IconCash, IconWallet } from '@tabler/icons-react';
import { otherCurrencies } from '@/components/ui/money';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import { CASH_OVERDUE_DAYS, type CashSummary } from '../api/types';

type Total = CashSummary['totals'][number];
type Figure = 'collected' | 'handed_over' | 'in_hand';

/**
 * Collected, Handed Over and In Hand over the collectors listed, and how many
 * hold cash too long. Amounts in different currencies are never added: the
 * first currency is the card's figure, the others its hint.
 */
export function CashTotals({ summary, loading }: { summary: CashSummary | undefined; loading: boolean }) {
  const totals = summary?.totals ?? [];
  if (!loading && totals.length === 0) return null;
  const main = totals[0];
  const money = (figure: Figure) => ({
    value: main ? <StatMoney amount={main[figure]} currency={main.currency} /> : '—',
    hint: main ? otherCurrencies(totals.map((t: Total) => ({ currency: t.currency, amount: t[figure] })), main.currency) : undefined,
  });
  const overdue = summary?.data.filter((c) => c.overdue).length ?? 0;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="lg">
      <StatCard label="Collected" loading={loading} color="teal" icon={<IconCash size={18} />} {...money('collected')} />
      <StatCard label="Handed Over" loading={loading} color="blue" icon={<IconBuildingBank size={18} />} {...money('handed_over')} />
      <StatCard label="In Hand" loading={loading} color="yellow" icon={<IconWallet size={18} />} {...money('in_hand')} />
      <StatCard
        label="Held Too Long"
        loading={loading}
        color={overdue ? 'red' : 'gray'}
        icon={<IconAlertTriangle size={18} />}
        value={overdue.toLocaleString()}
        hint={`Holding cash more than ${summary?.overdue_days ?? CASH_OVERDUE_DAYS} days`}
      />
    </SimpleGrid>
  );
}
