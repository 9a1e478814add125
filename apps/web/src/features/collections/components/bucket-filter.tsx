import { Grid, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { COLLECTION_BUCKET_LABELS, COLLECTION_BUCKETS } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useCollectionsSummary } from '../api/get-collections-summary';
import type { CollectionBucketFilter } from '../api/types';
import { BUCKET_COLORS } from './days-without-credit';
import { FilterCard, FilterCardGroup } from './filter-card';

const devicesText = (n: number) => (n === 1 ? '1 device' : `${n.toLocaleString()} devices`);

/** 'Out of credit: 15.0% of 40 open accounts': one decimal, as the products screen's rate. */
const shareText = (rate: number, open: number) =>
  `${rate.toFixed(1)}% of ${open.toLocaleString()} open ${open === 1 ? 'account' : 'accounts'}`;

/**
 * All and the four bands of days without credit, each with its device count
 * from GET /collections/summary; choosing one filters the table. The counts
 * may fail to load while the list works: the filter then still works, with
 * dashes for the counts and Retry.
 */
export function BucketFilter({ value, onChange }: { value: CollectionBucketFilter; onChange: (value: CollectionBucketFilter) => void }) {
  const summary = useCollectionsSummary();
  const currency = useOrganizationCurrency();
  // On a phone the bands stay one line high, so that whom to call is in view: their money is in the footer's total.
  const phone = useMediaQuery('(max-width: 48em)');
  const data = summary.data;
  const loading = summary.isPending;
  return (
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
                Left to pay on open accounts {formatMoney(data.outstandingTotal, currency)} · portfolio at risk over 30 days{' '}
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
      {/* Ten columns: one row of five from md; on a phone All takes a row, the bands two by two. */}
      <Grid columns={10} gap="md">
        <Grid.Col span={{ base: 10, md: 2 }}>
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
  );
}
