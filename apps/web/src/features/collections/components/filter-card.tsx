import type { ReactNode } from 'react';
import { Box, Group, Radio, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';

/** The chosen card is outlined in the primary colour, as the Reports screen marks its chosen report. */
const CHOSEN = {
  borderColor: 'var(--mantine-primary-color-filled)',
  boxShadow: '0 0 0 1px var(--mantine-primary-color-filled)',
};

/**
 * One choice of a filter of the Collections screen (a band, a promise
 * status), inside a Radio.Group: its label, its count once known, a hint.
 * `countText` words the count for the accessible name ("3 devices").
 */
export function FilterCard({
  value,
  chosen,
  label,
  count,
  countText,
  hint,
  color,
  loading,
}: {
  value: string;
  chosen: boolean;
  label: string;
  count: number | null;
  countText: (count: number) => string;
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
      // The name a screen reader reads and a test finds: the choice, then its count once known.
      aria-label={count === null ? label : `${label}: ${countText(count)}`}
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

/** What FilterCardGroup needs of the counts' query (a react-query result). */
interface CountsQuery {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A filter of the Collections screen: its cards (`children`, FilterCards in a
 * grid) as one radio group named `label`, and above them, when the counts
 * fail to load, the error with Retry: the cards still filter, with dashes.
 * `footer` goes under the cards.
 */
export function FilterCardGroup({
  label,
  value,
  onChange,
  counts,
  footer,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  counts: CountsQuery;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="xs" mb="lg">
      {counts.isError ? (
        <ErrorAlert
          title="Counts unavailable"
          message={errorMessage(counts.error, 'Failed to load the counts')}
          onRetry={() => void counts.refetch()}
          retrying={counts.isFetching}
        />
      ) : null}
      <Radio.Group
        value={value}
        onChange={onChange}
        // A label, not aria-label: Mantine names the radiogroup element by its label (aria-label would land on the
        // wrapper). Hidden from sight, and from the layout, by VisuallyHidden's own class on the label element.
        label={label}
        labelProps={{ className: VisuallyHidden.classes.root }}
      >
        {children}
      </Radio.Group>
      {footer}
    </Stack>
  );
}
