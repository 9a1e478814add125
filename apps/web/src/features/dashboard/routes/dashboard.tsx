import { Button, Grid, Group, Select, Stack } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { DateRangePicker, lastDays, type DayRange } from '@/components/ui/date-range-picker';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { useCustomerMetrics } from '../api/get-customer-metrics';
import { useHealth } from '../api/get-health';
import { usePaymentMetrics } from '../api/get-payment-metrics';
import { useRevenue } from '../api/get-revenue';
import { useSummary } from '../api/get-summary';
import { useUsageMetrics } from '../api/get-usage-metrics';
import { dashboardKeys } from '../api/keys';
import { CustomerOverviewCard, PaymentAnalyticsCard, RecentTransactionsCard, TokenManagementCard } from '../components/cards';
import { EmptyDashboard, PartialFailureBanner, type SectionFailure } from '../components/load-problems';
import { NeedsAttentionCard } from '../components/needs-attention-card';
import { RevenueMetricsCard } from '../components/revenue-metrics-card';
import { SystemHealthCard } from '../components/system-health-card';

export const TOTAL_FAILURE = 'Failed to load dashboard data';

/** Quick ranges of the header dropdown; picking dates by hand makes it 'Custom range'. */
const PRESETS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 12 months' },
];
const CUSTOM = 'custom';

function presetOf(range: DayRange, today: string): string {
  const hit = PRESETS.find((p) => {
    const r = lastDays(Number(p.value), today);
    return r.from === range.from && r.to === range.to;
  });
  return hit?.value ?? CUSTOM;
}

export default function DashboardRoute() {
  const qc = useQueryClient();
  // Default: the last 30 days, up to today in the business time zone.
  const today = useBusinessToday();
  const [range, setRange] = useState<DayRange>(() => lastDays(30, today));
  const preset = useMemo(() => presetOf(range, today), [range, today]);

  const customers = useCustomerMetrics();
  const payments = usePaymentMetrics(range);
  const summary = useSummary(range);
  const usage = useUsageMetrics(range);
  const revenue = useRevenue(range);
  const health = useHealth();

  const sections = [
    { section: 'Customers', q: customers },
    { section: 'Payments', q: payments },
    { section: 'Metrics', q: summary },
    { section: 'Tokens', q: usage },
  ] as const;
  const failures: SectionFailure[] = sections
    .filter((s) => s.q.isError)
    .map((s) => ({ section: s.section, message: errorMessage(s.q.error, 'Request failed') }));
  if (revenue.isError && !summary.isError) {
    failures.push({ section: 'Metrics', message: errorMessage(revenue.error, 'Request failed') });
  }
  const allFailed = sections.every((s) => s.q.isError);
  const loaded = sections.every((s) => s.q.isSuccess);
  const empty =
    loaded &&
    (customers.data?.total ?? 0) === 0 &&
    (payments.data?.total_payments ?? 0) === 0 &&
    (usage.data?.tokens_total ?? 0) === 0;
  const refreshing = sections.some((s) => s.q.isFetching) || revenue.isFetching;

  const refresh = () => void qc.invalidateQueries({ queryKey: dashboardKeys.all });
  const retryFailed = () => {
    for (const s of sections) if (s.q.isError) void s.q.refetch();
    if (revenue.isError) void revenue.refetch();
  };

  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="Manage your pay-as-you-go services: customers, payments, tokens and system health at a glance."
        actions={
          <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label="Period"
                w={170}
                data={[...PRESETS, { value: CUSTOM, label: 'Custom range', disabled: true }]}
                value={preset}
                allowDeselect={false}
                onChange={(v) => v && v !== CUSTOM && setRange(lastDays(Number(v), today))}
              />
              <DateRangePicker value={range} onChange={setRange} />
              <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={refreshing}>
                Refresh
              </Button>
          </Group>
        }
      />

      <Stack gap="lg">
        {allFailed ? (
          <ErrorAlert message={TOTAL_FAILURE} onRetry={retryFailed} retrying={refreshing} />
        ) : failures.length ? (
          <PartialFailureBanner failures={failures} onRetry={retryFailed} />
        ) : null}
        {empty ? <EmptyDashboard onRetry={refresh} /> : null}

        <Grid gap="lg">
          {/* What waits now, whatever the period: first, and shown even when the period's figures all failed. */}
          <Grid.Col span={12}>
            <NeedsAttentionCard />
          </Grid.Col>
          {allFailed ? null : (
            <>
              <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
                <CustomerOverviewCard data={customers.data} loading={customers.isPending} failed={customers.isError} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
                <PaymentAnalyticsCard data={payments.data} loading={payments.isPending} failed={payments.isError} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
                <TokenManagementCard data={usage.data} loading={usage.isPending} failed={usage.isError} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <RevenueMetricsCard
                  summary={summary.data}
                  loading={summary.isPending}
                  failed={summary.isError}
                  series={revenue.data}
                  seriesLoading={revenue.isPending}
                  seriesFailed={revenue.isError}
                />
              </Grid.Col>
            </>
          )}
          <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
            <SystemHealthCard
              health={health.data}
              failed={health.isError}
              checking={health.isFetching}
              checkedAt={health.dataUpdatedAt || health.errorUpdatedAt}
              onRefresh={() => void health.refetch()}
            />
          </Grid.Col>
          {allFailed ? null : (
            <Grid.Col span={12}>
              <RecentTransactionsCard data={payments.data} loading={payments.isPending} failed={payments.isError} />
            </Grid.Col>
          )}
        </Grid>
      </Stack>
    </>
  );
}
