import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Center, Skeleton, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { formatMoney } from '@/components/ui/money';
import type { MetricsSummary, RevenueSeries } from '../api/types';
import { SectionCard, SectionError, Stat } from './section-card';

/** A fraction 0..1 as a percent with one decimal: 0.8567 → '85.7%'. */
export function formatRate(fraction: number | null | undefined): string {
  const value = typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : 0;
  return `${(value * 100).toFixed(1)}%`;
}

function periodLabel(period: string, interval: RevenueSeries['interval']): string {
  const date = new Date(`${period}T00:00:00`);
  if (Number.isNaN(date.getTime())) return period;
  return new Intl.DateTimeFormat(undefined, interval === 'month' ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' }).format(date);
}

export function RevenueTrend({ series, loading, failed }: { series?: RevenueSeries; loading: boolean; failed: boolean }) {
  if (loading && !series) return <Skeleton h={220} />;
  if (failed && !series) {
    return (
      <Center h={220}>
        <SectionError what="the revenue trend" />
      </Center>
    );
  }
  const data = (series?.points ?? []).map((p) => ({
    period: periodLabel(p.period, series!.interval),
    Revenue: Number(p.revenue) || 0,
    Payments: p.count,
  }));
  if (data.every((d) => d.Revenue === 0)) {
    return (
      <Center h={220}>
        <Stack gap={4} align="center">
          <IconChartAreaLine size={28} color="var(--mantine-color-dimmed)" aria-hidden />
          <Text size="sm" c="dimmed">
            No revenue in this period
          </Text>
        </Stack>
      </Center>
    );
  }
  return (
    <AreaChart
      h={220}
      data={data}
      dataKey="period"
      series={[{ name: 'Revenue', color: 'kidogo.6' }]}
      curveType="monotone"
      withDots={data.length <= 31}
      gridAxis="y"
      tickLine="none"
      valueFormatter={(v) => formatMoney(v)}
      yAxisProps={{ width: 90, tickFormatter: (v: number) => new Intl.NumberFormat(undefined, { notation: 'compact' }).format(v) }}
      areaChartProps={{ accessibilityLayer: true }}
      aria-label="Revenue trend"
    />
  );
}

export function RevenueMetricsCard({
  summary,
  series,
  loading,
  failed,
  seriesLoading,
  seriesFailed,
}: {
  summary?: MetricsSummary;
  series?: RevenueSeries;
  loading: boolean;
  failed: boolean;
  seriesLoading: boolean;
  seriesFailed: boolean;
}) {
  return (
    <SectionCard title="Revenue Metrics" icon={IconChartAreaLine}>
      {failed && !summary ? (
        <SectionError what="metrics" />
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mb="lg">
          <Stat label="Total revenue" value={formatMoney(summary?.total_revenue ?? 0)} loading={loading} compact />
          <Stat label="Average transaction" value={formatMoney(summary?.average_transaction ?? 0)} loading={loading} compact />
          <Stat label="Transactions" value={(summary?.transaction_count ?? 0).toLocaleString()} loading={loading} />
          <Stat label="Success rate" value={formatRate(summary?.success_rate)} loading={loading} color="green" />
        </SimpleGrid>
      )}
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={6}>
        Revenue trend{series ? ` (by ${series.interval})` : ''}
      </Text>
      <RevenueTrend series={series} loading={seriesLoading} failed={seriesFailed} />
    </SectionCard>
  );
}
