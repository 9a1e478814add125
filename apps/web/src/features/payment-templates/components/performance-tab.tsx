import { Text } from '@mantine/core';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Money } from '@/components/ui/money';
import { usePerformance } from '../api/get-performance';
import type { TemplatePerformance } from '../api/types';
import { PaidUpBar } from './figures';
import { PERFORMANCE_FAILED } from './performance-modal';

const columns: Column<TemplatePerformance>[] = [
  {
    key: 'name',
    header: 'Template',
    render: (p) => (
      <>
        <Text size="sm" fw={500}>
          {p.template_name}
        </Text>
        <Text size="xs" c="dimmed">
          ID: {p.template_id}
        </Text>
      </>
    ),
  },
  { key: 'daily', header: 'Daily Price', align: 'right', render: (p) => <Money amount={p.daily_price} currency={p.currency} size="sm" /> },
  { key: 'customers', header: 'Customers', align: 'right', render: (p) => p.customers_assigned.toLocaleString() },
  { key: 'payments', header: 'Payments', align: 'right', render: (p) => p.payments_count.toLocaleString() },
  { key: 'revenue', header: 'Revenue Collected', align: 'right', render: (p) => <Money amount={p.revenue_collected} currency={p.currency} size="sm" fw={600} /> },
  { key: 'days', header: 'Avg Days Bought', align: 'right', render: (p) => p.average_days_bought.toFixed(1) },
  {
    key: 'paid-up',
    header: 'Devices Paid Up',
    render: (p) => <PaidUpBar share={p.paid_up_share} paidUp={p.devices_paid_up} assigned={p.devices_assigned} />,
  },
];

/** Every template's real figures from the payments ledger and devices. */
export function PerformanceTab() {
  const perf = usePerformance();
  return (
    <DataTable
      caption="Template performance"
      columns={columns}
      rows={perf.data}
      rowKey={(p) => p.template_id}
      loading={perf.isPending}
      error={perf.isError ? PERFORMANCE_FAILED : null}
      onRetry={() => void perf.refetch()}
      emptyText="No templates yet"
      emptyHint="Performance shows here once templates are assigned and customers pay."
      minWidth={900}
    />
  );
}
