import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Button, Center, Group, Modal, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { useTemplatePerformance } from '../api/get-template-performance';
import { useTemplateUsage } from '../api/get-template-usage';
import type { PaymentTemplate } from '../api/types';
import { Figure, PaidUpBar } from './figures';

export const PERFORMANCE_FAILED = 'Failed to load performance data';

function monthLabel(month: string) {
  const d = new Date(`${month.slice(0, 7)}-01T00:00:00`);
  return Number.isNaN(d.getTime()) ? month : new Intl.DateTimeFormat(undefined, { month: 'short', year: '2-digit' }).format(d);
}

/** One template's real figures: customers, revenue, payments, days bought, devices paid up, and assignments per month. */
export function PerformanceModal({ template, onClose }: { template: PaymentTemplate | null; onClose: () => void }) {
  const id = template?.template_id ?? null;
  const perf = useTemplatePerformance(id);
  const usage = useTemplateUsage(id);
  const failed = perf.isError || usage.isError;
  const retry = () => {
    if (perf.isError) void perf.refetch();
    if (usage.isError) void usage.refetch();
  };
  const p = perf.data;
  const u = usage.data;

  return (
    <Modal opened={template !== null} onClose={onClose} title="Template Performance" size="xl">
      {template ? (
        <Stack gap="md">
          <Stack gap={0}>
            <Title order={4}>{template.template_name}</Title>
            <Text size="sm" c="dimmed">
              Template ID {template.template_id} · {formatMoney(template.daily_price, template.currency)} per day
            </Text>
          </Stack>
          {failed ? <ErrorAlert message={PERFORMANCE_FAILED} onRetry={retry} /> : null}
          {perf.isPending ? (
            <SimpleGrid cols={{ base: 2, sm: 3 }}>
              {[0, 1, 2, 3, 4, 5].map((i) => (
                <Skeleton key={i} h={72} />
              ))}
            </SimpleGrid>
          ) : p ? (
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
              <Figure label="Customers on template" value={p.customers_assigned.toLocaleString()} hint={u ? `${u.customers_ever} ever` : undefined} />
              <Figure label="Revenue collected" value={formatMoney(p.revenue_collected, p.currency)} />
              <Figure label="Payments" value={p.payments_count.toLocaleString()} />
              <Figure label="Avg days bought" value={p.average_days_bought.toFixed(1)} hint="per payment" />
              <Figure label="Devices assigned" value={p.devices_assigned.toLocaleString()} />
              <Figure
                label="Paid up to date"
                value={<PaidUpBar share={p.paid_up_share} paidUp={p.devices_paid_up} assigned={p.devices_assigned} />}
              />
            </SimpleGrid>
          ) : null}
          <Stack gap={4}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              Assignments per month (last 12 months)
            </Text>
            {usage.isPending ? (
              <Skeleton h={180} />
            ) : u && u.assignments_by_month.some((m) => m.assignments > 0) ? (
              <BarChart
                h={180}
                data={u.assignments_by_month.map((m) => ({ month: monthLabel(m.month), Assignments: m.assignments }))}
                dataKey="month"
                series={[{ name: 'Assignments', color: 'kidogo.6' }]}
                tickLine="none"
                gridAxis="y"
                yAxisProps={{ allowDecimals: false, width: 32 }}
              />
            ) : u ? (
              <Center h={100}>
                <Text size="sm" c="dimmed">
                  No assignments in the last 12 months
                </Text>
              </Center>
            ) : null}
            {u ? (
              <Text size="xs" c="dimmed">
                {u.active_assignments} active, {u.ended_assignments} ended
              </Text>
            ) : null}
          </Stack>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
