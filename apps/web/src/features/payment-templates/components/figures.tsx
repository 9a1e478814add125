import { Card, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A fraction 0..1 as a percent with one decimal. */
export const percent = (fraction: number | null | undefined) =>
  `${((typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : 0) * 100).toFixed(1)}%`;

export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card padding="sm">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={700} size="lg" mt={2} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}

/** Devices paid up to date as a bar with its share. */
export function PaidUpBar({ share, paidUp, assigned }: { share: number; paidUp: number; assigned: number }) {
  return (
    <Stack gap={2} miw={120}>
      <Progress value={Math.min(100, share * 100)} color={share >= 0.8 ? 'green' : share >= 0.5 ? 'yellow' : 'red'} size="sm" aria-label="Paid up share" />
      <Text size="xs" c="dimmed">
        {percent(share)} · {paidUp} of {assigned}
      </Text>
    </Stack>
  );
}
