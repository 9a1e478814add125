import { Badge, Stack, Text } from '@mantine/core';
import { COLLECTION_BUCKET_DAYS, COLLECTION_BUCKETS } from '@kidogo/contracts';
import { formatDate } from '@/components/ui/date-text';
import type { CollectionAccount, CollectionBucket } from '../api/types';

/**
 * Each band's colour, warmer the longer the device has been dark; the
 * summary cards and the table's badges share it so one reads the other.
 */
export const BUCKET_COLORS: Record<CollectionBucket, string> = {
  '0-7': 'yellow',
  '8-30': 'orange',
  '31-90': 'red',
  'over-90': 'red.9',
};

export const daysText = (days: number) => (days === 1 ? '1 day' : `${days.toLocaleString()} days`);

/** The band a count of days without credit falls in, by the contract's bounds (rows of the Promises list carry the days, not the band). */
export const bucketOf = (days: number): CollectionBucket =>
  COLLECTION_BUCKETS.find((b) => {
    const { max } = COLLECTION_BUCKET_DAYS[b];
    return max === null || days <= max;
  }) ?? 'over-90';

/** Days without credit as a badge in the colour of its band; over 90 days filled, the most urgent. */
export function DaysBadge({ days, bucket = bucketOf(days) }: { days: number; bucket?: CollectionBucket }) {
  return (
    <Badge color={BUCKET_COLORS[bucket]} variant={bucket === 'over-90' ? 'filled' : 'light'} radius="sm" miw="max-content">
      {daysText(days)}
    </Badge>
  );
}

/**
 * Days without credit as a badge coloured by band, and since when. A device
 * no payment has bought days for counts from the day it was given out: say
 * so, since that customer has not started paying at all.
 */
export function DaysWithoutCredit({ account }: { account: CollectionAccount }) {
  const neverBought = account.credit_until === null;
  // A date kept on one line (non-breaking spaces): a narrow cell wraps "No days bought · given" before it, not inside it.
  const since = formatDate(account.out_of_credit_since).replace(/ /g, '\u00a0');
  return (
    <Stack gap={2} align="flex-start">
      <DaysBadge days={account.days_without_credit} bucket={account.bucket} />
      {/* May wrap after the "·": with Last Contact and Log Contact the table is tight on a laptop. */}
      <Text size="xs" c="dimmed">
        {neverBought
          ? account.last_payment_at === null
            ? `Never\u00a0paid\u00a0· given\u00a0${since}`
            : `No\u00a0days\u00a0bought\u00a0· given\u00a0${since}`
          : `Since\u00a0${since}`}
      </Text>
    </Stack>
  );
}
