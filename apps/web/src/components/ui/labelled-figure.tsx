import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small figure under its label (what a payment bought, a receipt): a group named by the label, for screen readers and tests. */
export function LabelledFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} role="group" aria-label={label}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text size="sm" fw={600} component="div" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Text>
    </Stack>
  );
}
