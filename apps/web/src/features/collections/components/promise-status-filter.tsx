import { Grid, Text } from '@mantine/core';
import { PROMISE_STATUS_LABELS, PROMISE_STATUSES } from '@kidogo/contracts';
import { usePromisesSummary } from '../api/get-promises-summary';
import type { PromiseStatusFilter as StatusFilter } from '../api/types';
import { FilterCard, FilterCardGroup } from './filter-card';
import { formatDay } from './last-contact';
import { PROMISE_STATUS_COLORS } from './promise-status-badge';

const promisesText = (n: number) => (n === 1 ? '1 promise' : `${n.toLocaleString()} promises`);

/** The server rounds the rate to one decimal; the card writes it so even when it is whole ("50.0%"). */
const keptRateText = (rate: number | null) => (rate === null ? 'No promises settled yet' : `Kept rate: ${rate.toFixed(1)}% of settled promises`);

/**
 * All and the five promise statuses, each with its count from GET
 * /collections/promises/summary; choosing one filters the table. As on Out of
 * Credit, the counts may fail while the list works: the cards still filter,
 * with dashes and Retry.
 */
export function PromiseStatusFilter({ value, onChange }: { value: StatusFilter; onChange: (value: StatusFilter) => void }) {
  const summary = usePromisesSummary();
  const data = summary.data;
  const loading = summary.isPending;
  return (
    <FilterCardGroup
      label="Promise status"
      value={value}
      onChange={(v) => onChange(v as StatusFilter)}
      counts={summary}
      footer={
        data?.from ? (
          // A sentence, not a timestamp like Out of Credit's "Counts as of": left-aligned, it wraps on a phone as text does.
          <Text size="xs" c="dimmed">
            Promises for days from {formatDay(data.from)} on; an older broken one is a device in the Over 90 days band of Out of Credit.
          </Text>
        ) : null
      }
    >
      {/* Six cards: one row on a wide screen, three by two on a tablet, two by three on a phone. */}
      <Grid columns={12} gap="md">
        <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
          <FilterCard
            value="all"
            chosen={value === 'all'}
            label="All"
            count={data ? data.total : null}
            countText={promisesText}
            hint={data ? keptRateText(data.keptRate) : undefined}
            loading={loading}
          />
        </Grid.Col>
        {PROMISE_STATUSES.map((status) => (
          <Grid.Col key={status} span={{ base: 6, sm: 4, lg: 2 }}>
            <FilterCard
              value={status}
              chosen={value === status}
              label={PROMISE_STATUS_LABELS[status]}
              count={data ? data.counts[status] : null}
              countText={promisesText}
              color={PROMISE_STATUS_COLORS[status]}
              loading={loading}
            />
          </Grid.Col>
        ))}
      </Grid>
    </FilterCardGroup>
  );
}
