import { Box, Grid, Group, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { COLLECTION_BUCKET_LABELS, COLLECTION_BUCKETS } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useCollectionsSummary } from '../api/get-collections-summary';
import type { CollectionBucketFilter } from '../api/types';
import { BUCKET_COLORS } from './days-without-credit';

const devicesText = (n: number) => (n === 1 ? '1 device' : `${n.toLocaleString()} devices`);

/** 'Out of credit: 15.0% of 40 open accounts': one decimal, as the products screen's rate. */
const shareText = (rate: number, open: number) =>
  `${rate.toFixed(1)}% of ${open.toLocaleString()} open ${open === 1 ? 'account' : 'accounts'}`;

/** The chosen card is outlined in the primary colour, as the Reports screen marks its chosen report. */
const CHOSEN = {
  borderColor: 'var(--mantine-primary-color-filled)',
  boxShadow: '0 0 0 1px var(--mantine-primary-color-filled)',
};

function FilterCard({
  value,
  chosen,
  label,
  count,
  hint,
  color,
  loading,
}: {
  value: CollectionBucketFilter;
  chosen: boolean;
  label: string;
  count: number | null;
  hint?: string;
  color?: string;
  loading: boolean;
}) {
  return (
    <Radio.Card
      value={value}
      radius="md"
      p="md"
      h="100%"
      // The name a screen reader reads and a test finds: the band, then its count once known.
      aria-label={count === null ? label : `${label}: ${devicesText(count)}`}
      bg={chosen ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-body)'}
      // A button centres its content: the cards of a row keep their labels level at the top instead.
      style={{ display: 'flex', flexDirection: 'column', justifyContent: 'flex-start', ...(chosen ? CHOSEN : null) }}
    >
      <Stack gap={4}>
        <Group gap={8} wrap="nowrap">
          {color ? <Box w={10} h={10} bg={color} style={{ borderRadius: '50%', flexShrink: 0 }} aria-hidden /> : null}
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
            {label}
          </Text>
        </Group>
        {loading ? (
          <Skeleton h={28} w={56} />
        ) : (
          <Text fz={24} fw={700} style={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.25 }}>
            {count === null ? '—' : count.toLocaleString()}
          </Text>
        )}
        {hint ? (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        ) : null}
      </Stack>
    </Radio.Card>
  );
}

/**
 * All and the four bands of days without credit, each with its device count
 * from GET /collections/summary; choosing one filters the table. The counts
 * may fail to load while the list works: the filter then still works, with
 * dashes for the counts and Retry.
 */
export function BucketFilter({ value, onChange }: { value: CollectionBucketFilter; onChange: (value: CollectionBucketFilter) => void }) {
  const summary = useCollectionsSummary();
  const data = summary.data;
  const loading = summary.isPending;
  return (
    <Stack gap="xs" mb="lg">
      {summary.isError ? (
        <ErrorAlert
          title="Counts unavailable"
          message={errorMessage(summary.error, 'Failed to load the counts')}
          onRetry={() => void summary.refetch()}
          retrying={summary.isFetching}
        />
      ) : null}
      <Radio.Group value={value} onChange={(v) => onChange(v as CollectionBucketFilter)} aria-label="Days without credit">
        {/* Ten columns: one row of five from md; on a phone All takes a row, the bands two by two. */}
        <Grid columns={10} gap="md">
          <Grid.Col span={{ base: 10, md: 2 }}>
            <FilterCard
              value="all"
              chosen={value === 'all'}
              label="All"
              count={data ? data.outOfCredit : null}
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
                color={BUCKET_COLORS[bucket]}
                loading={loading}
              />
            </Grid.Col>
          ))}
        </Grid>
      </Radio.Group>
      {data?.asOf ? (
        <Text size="xs" c="dimmed" ta="right">
          Counts as of {formatDate(data.asOf, true)}
        </Text>
      ) : null}
    </Stack>
  );
}
