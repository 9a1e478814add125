import { SimpleGrid } from '@mantine/core';
import { IconAlertTriangle, IconCash, IconCircleCheck, IconInbox } from '@tabler/icons-react';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useMessageStats } from '../api/get-message-stats';

export function MessageStatsCards() {
  const { data, isPending, isError } = useMessageStats();
  const currency = useOrganizationCurrency();
  // The stats are a convenience: without them the list still works.
  if (isError) return null;
  const n = (v: number | undefined) => (v ?? 0).toLocaleString();
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="lg">
      <StatCard
        label="Today"
        value={n(data?.today)}
        loading={isPending}
        icon={<IconInbox size={18} />}
        hint={data ? `${n(data.this_week)} this week` : undefined}
      />
      {/*
        GET /messages/stats counts the received messages that were processed,
        over all time; the table's Processed badge is also on the reply-only
        rows of payments staff recorded (no Incoming text). Say which.
      */}
      <StatCard
        label="Incoming Processed"
        value={n(data?.processed)}
        loading={isPending}
        color="green"
        icon={<IconCircleCheck size={18} />}
        hint="All time"
      />
      <StatCard
        label="Unmatched"
        value={n(data?.unmatched)}
        loading={isPending}
        color="orange"
        icon={<IconAlertTriangle size={18} />}
        hint={data && data.unparsed > 0 ? `${data.unparsed} unparsed` : undefined}
      />
      <StatCard
        label="Amount Received"
        value={<StatMoney amount={data?.amount_received ?? '0'} currency={currency} />}
        loading={isPending}
        color="teal"
        icon={<IconCash size={18} />}
        hint={data?.outbox ? `${data.outbox.sent} SMS sent · ${data.outbox.queued} queued` : undefined}
      />
    </SimpleGrid>
  );
}
