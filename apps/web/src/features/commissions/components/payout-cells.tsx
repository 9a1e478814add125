import { Stack, Text } from '@mantine/core';
import { DateText } from '@/components/ui/date-text';

/** Long agent names and references wrap anywhere rather than widen the table. */
export const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;

/** When something was done and by whom ("Dec 2, 2026, 12:00 PM / by mary · Ref SK…"), as the payout tables show it. */
export function WhenBy({ at, by, extra }: { at: string | null; by: string | null; extra?: string }) {
  return (
    <Stack gap={2}>
      <DateText value={at} withTime />
      <Text size="xs" c="dimmed" style={BREAK_ANYWHERE}>
        by {by ?? '—'}
        {extra ?? ''}
      </Text>
    </Stack>
  );
}
