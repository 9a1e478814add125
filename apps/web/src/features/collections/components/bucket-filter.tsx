import { Box, Grid, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { COLLECTION_BUCKET_LABELS, COLLECTION_BUCKETS, NO_AGENT } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useCollectionsSummary } from '../api/get-collections-summary';
import type { AgentFilter, CollectionBucketFilter } from '../api/types';
import { AgentSelect, agentPhrase } from './agent-filter';
import { BUCKET_COLORS } from './days-without-credit';
import { FilterCard, FilterCardGroup } from './filter-card';

const devicesText = (n: number) => (n === 1 ? '1 device' : `${n.toLocaleString()} devices`);

/** 'Out of credit: 15.0% of 40 open accounts': one decimal, as the products screen's rate. */
const shareText = (rate: number, open: number) =>
  `${rate.toFixed(1)}% of ${open.toLocaleString()} open ${open === 1 ? 'account' : 'accounts'}`;

/**
 * The filters of Out of Credit: the sales agent, and All and the four bands
 * of days without credit, each with its device count from
 * GET /collections/summary (of `agent`'s customers when one is chosen);
 * choosing one filters the table. The counts may fail to load while the list
 * works: the filter then still works, with dashes for the counts and Retry.
 */
export function BucketFilter({
  value,
  agent,
  onChange,
  onAgentChange,
}: {
  value: CollectionBucketFilter;
  agent: AgentFilter;
  onChange: (value: CollectionBucketFilter) => void;
  onAgentChange: (agent: AgentFilter) => void;
}) {
  const summary = useCollectionsSummary(agent);
  const currency = useOrganizationCurrency();
  // On a phone the bands stay one line high, so that whom to call is in view: their money is in the footer's total.
  const phone = useMediaQuery('(max-width: 48em)');
  const data = summary.data;
  const loading = summary.isPending;
  return (
    <>
      {/* Above the cards; on a phone beside All instead, as a card of its own: a row more would push whom to call off the screen. */}
      {phone ? null : (
        <Group justify="space-between" align="flex-end" gap="md" mb="md" wrap="nowrap">
          <AgentSelect value={agent} onChange={onAgentChange} />
          {agent !== null ? (
            <Text size="sm" c="dimmed" ta="right" style={{ minWidth: 0 }}>
              Showing only the devices of {agent === NO_AGENT ? 'customers without an agent' : `agent ${agent}'s customers`}.
            </Text>
          ) : null}
        </Group>
      )}
      <FilterCardGroup
        label="Days without credit"
        value={value}
        onChange={(v) => onChange(v as CollectionBucketFilter)}
        counts={summary}
        footer={
          data?.asOf ? (
            <Text size="xs" c="dimmed" ta="right">
              {data.outstandingTotal !== null && data.par30 !== null ? (
                <>
                  Left to pay on open accounts{agent === null ? '' : ` of ${agentPhrase(agent)}`} {formatMoney(data.outstandingTotal, currency)} · portfolio at risk over 30 days{' '}
                  <Text span size="xs" fw={700} c={data.par30 >= 10 ? 'red' : undefined}>
                    {data.par30.toFixed(1)}%
                  </Text>{' '}
                  ·{' '}
                </>
              ) : null}
              Counts as of {formatDate(data.asOf, true)}
            </Text>
          ) : null
        }
      >
        {/* Ten columns: one row of five from md; below it All takes a row (on a phone beside the agent), the bands two by two. */}
        <Grid columns={10} gap="md">
          <Grid.Col span={{ base: phone ? 5 : 10, md: 2 }}>
            <FilterCard
              value="all"
              chosen={value === 'all'}
              label="All"
              count={data ? data.outOfCredit : null}
              countText={devicesText}
              hint={data ? shareText(data.outOfCreditRate, data.openAccounts) : undefined}
              loading={loading}
            />
          </Grid.Col>
          {phone ? (
            <Grid.Col span={5}>
              <Box p="md" h="100%" bd="1px solid var(--mantine-color-default-border)" bg="var(--mantine-color-body)" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
                <AgentSelect value={agent} onChange={onAgentChange} inCard />
              </Box>
            </Grid.Col>
          ) : null}
          {COLLECTION_BUCKETS.map((bucket) => (
            <Grid.Col key={bucket} span={{ base: 5, md: 2 }}>
              <FilterCard
                value={bucket}
                chosen={value === bucket}
                label={COLLECTION_BUCKET_LABELS[bucket]}
                count={data ? data.devices[bucket] : null}
                countText={devicesText}
                hint={!phone && data && data.outstandingTotal !== null ? `${formatMoney(data.outstanding[bucket], currency)} left to pay` : undefined}
                color={BUCKET_COLORS[bucket]}
                loading={loading}
              />
            </Grid.Col>
          ))}
        </Grid>
      </FilterCardGroup>
    </>
  );
}
