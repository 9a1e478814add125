import { Box, Divider, Group, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconCoins, IconKey, IconReceipt2, IconUsers } from '@tabler/icons-react';
import { DateText } from '@/components/ui/date-text';
import { formatMoney, Money } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import { TokenText } from '@/components/ui/token-text';
import type { CustomerMetrics, PaymentMetrics, UsageMetrics } from '../api/types';
import { RecentEmpty, SectionCard, SectionError, Stat } from './section-card';

/** Recent lists on the cards show 3 (spec §9). */
export const RECENT_ON_CARDS = 3;

const count = (n: number | undefined) => (n ?? 0).toLocaleString();

/** Any payment status the spec calls successful. */
export const isSuccessful = (status: string) => ['success', 'completed'].includes(status.toLowerCase());

function RecentList({ loading, children }: { loading: boolean; children: React.ReactNode }) {
  return (
    <>
      <Divider my="md" label="Recent" labelPosition="left" />
      {loading ? (
        <Stack gap="xs">
          <Skeleton h={34} />
          <Skeleton h={34} />
          <Skeleton h={34} />
        </Stack>
      ) : (
        <Stack gap="sm">{children}</Stack>
      )}
    </>
  );
}

export function CustomerOverviewCard({ data, loading, failed }: { data?: CustomerMetrics; loading: boolean; failed: boolean }) {
  const recent = data?.recent?.slice(0, RECENT_ON_CARDS) ?? [];
  return (
    <SectionCard title="Customer Overview" icon={IconUsers} color="blue">
      {failed && !data ? (
        <SectionError what="customers" />
      ) : (
        <>
          <SimpleGrid cols={3} spacing="sm">
            <Stat label="Total" value={count(data?.total)} loading={loading} />
            <Stat label="Active" value={count(data?.active)} loading={loading} color="green" />
            <Stat label="This week" value={count(data?.new_this_week)} loading={loading} />
          </SimpleGrid>
          <RecentList loading={loading}>
            {recent.length === 0 ? <RecentEmpty>No customers yet</RecentEmpty> : null}
            {recent.map((c) => (
              <Group key={c.customer_id} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} miw={0}>
                  <Text size="sm" fw={500} truncate>
                    {c.customer_name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {c.phone_contact}
                    {c.county ? ` · ${c.county}` : ''}
                  </Text>
                </Stack>
                <Box style={{ flexShrink: 0 }}>
                  <StatusBadge kind="customer" status={c.status} />
                </Box>
              </Group>
            ))}
          </RecentList>
        </>
      )}
    </SectionCard>
  );
}

export function PaymentAnalyticsCard({ data, loading, failed }: { data?: PaymentMetrics; loading: boolean; failed: boolean }) {
  const recent = data?.recent?.slice(0, RECENT_ON_CARDS) ?? [];
  return (
    <SectionCard title="Payment Analytics" icon={IconCoins} color="teal">
      {failed && !data ? (
        <SectionError what="payments" />
      ) : (
        <>
          <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
            <Stat label="Total revenue" value={formatMoney(data?.total_revenue ?? 0)} loading={loading} compact />
            <Stat label="Total payments" value={count(data?.total_payments)} loading={loading} />
            <Stat label="Successful" value={count(data?.successful)} loading={loading} color="green" />
            <Stat label="Pending" value={count(data?.pending)} loading={loading} color="yellow.7" />
          </SimpleGrid>
          <RecentList loading={loading}>
            {recent.length === 0 ? <RecentEmpty>No payments in this period</RecentEmpty> : null}
            {recent.map((p) => (
              <Group key={p.payment_id} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} miw={0}>
                  <Text size="sm" fw={500} truncate>
                    {p.customer_name ?? (p.customer_id ? `Customer #${p.customer_id}` : 'Unmatched payment')}
                  </Text>
                  <DateText value={p.paid_at ?? p.created_at} size="xs" c="dimmed" />
                </Stack>
                <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
                  <Money amount={p.amount} size="sm" fw={600} />
                  <StatusBadge kind="payment" status={p.status} />
                </Stack>
              </Group>
            ))}
          </RecentList>
        </>
      )}
    </SectionCard>
  );
}

export function TokenManagementCard({ data, loading, failed }: { data?: UsageMetrics; loading: boolean; failed: boolean }) {
  const recent = data?.recent?.slice(0, RECENT_ON_CARDS) ?? [];
  return (
    <SectionCard title="Token Management" icon={IconKey} color="violet">
      {failed && !data ? (
        <SectionError what="tokens" />
      ) : (
        <>
          <SimpleGrid cols={3} spacing="sm">
            <Stat label="Total" value={count(data?.tokens_total)} loading={loading} />
            <Stat label="Active" value={count(data?.tokens_active)} loading={loading} color="green" />
            <Stat label="Expired" value={count(data?.tokens_expired)} loading={loading} color="red" />
          </SimpleGrid>
          <RecentList loading={loading}>
            {recent.length === 0 ? <RecentEmpty>No tokens in this period</RecentEmpty> : null}
            {recent.map((t) => (
              <Group key={t.id} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} miw={0}>
                  <TokenText token={t.token} size="sm" fw={500} />
                  <Text size="xs" c="dimmed" truncate>
                    {t.serial_number} · {t.days} {t.days === 1 ? 'day' : 'days'}
                  </Text>
                </Stack>
                <Box style={{ flexShrink: 0 }}>
                  <StatusBadge kind="token" status={t.status} isValid={t.is_valid} />
                </Box>
              </Group>
            ))}
          </RecentList>
        </>
      )}
    </SectionCard>
  );
}

export function RecentTransactionsCard({ data, loading, failed }: { data?: PaymentMetrics; loading: boolean; failed: boolean }) {
  const rows = data?.recent?.slice(0, 5) ?? [];
  return (
    <SectionCard title="Recent Transactions" icon={IconReceipt2} color="orange">
      {failed && !data ? (
        <SectionError what="transactions" />
      ) : loading ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={28} />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <RecentEmpty>No transactions found</RecentEmpty>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-label="Recent transactions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th ta="right">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.payment_id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {p.customer_name ?? (p.customer_id ? `Customer #${p.customer_id}` : 'Unmatched payment')}
                    </Text>
                    {p.serial_number ? (
                      <Text size="xs" c="dimmed" ff="monospace">
                        {p.serial_number}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td tt="capitalize">{(p.payment_method ?? '—').replace(/_/g, ' ')}</Table.Td>
                  <Table.Td>
                    <DateText value={p.paid_at ?? p.created_at} withTime />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money amount={p.amount} size="sm" fw={600} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <StatusBadge kind="payment" status={p.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SectionCard>
  );
}
