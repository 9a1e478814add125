import { Card, Group, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** A figure with its label: the summary cards above lists and on detail screens. */
export function StatCard({
  label,
  value,
  icon,
  color = 'kidogo',
  hint,
  loading = false,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  color?: string;
  hint?: ReactNode;
  loading?: boolean;
}) {
  return (
    <Card padding="md" radius="md" aria-label={label} role="group">
      <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {label}
        </Text>
        {/* Decorative: on a phone, two cards to a row leave a long label ("Total Organizations") no room beside it. */}
        {icon ? (
          <ThemeIcon variant="light" color={color} size={32} radius="md" aria-hidden visibleFrom="xs" style={{ flexShrink: 0 }}>
            {icon}
          </ThemeIcon>
        ) : null}
      </Group>
      {loading ? (
        <Skeleton h={28} w={80} mt={6} />
      ) : (
        <Text fz={24} fw={700} mt={4} style={{ fontVariantNumeric: 'tabular-nums', wordBreak: 'break-word', lineHeight: 1.25 }}>
          {value}
        </Text>
      )}
      {hint ? (
        <Text size="xs" c="dimmed" mt={2}>
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}

/** An amount for a StatCard: the currency code small in front, so the figure stays on one line. */
export function StatMoney({ amount, currency, prefix }: { amount: number | string | null | undefined; currency?: string | null; prefix?: string }) {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  const digits =
    n === null || n === undefined || !Number.isFinite(n)
      ? '—'
      : new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
  // The code may go above the figure on a narrow card; the figure itself never breaks.
  return (
    <span>
      {prefix ?? (
        <Text span fz="sm" fw={600} c="dimmed">
          {currency?.trim() || 'USD'}
        </Text>
      )}{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{digits}</span>
    </span>
  );
}
