import { Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A dashboard card: icon, title, optional action on the right, then its content. */
export function SectionCard({
  title,
  icon: IconCmp,
  color = 'kidogo',
  action,
  children,
}: {
  title: string;
  icon: Icon;
  color?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card padding="lg" h="100%" component="section" aria-label={title}>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={color} size="lg" radius="md">
            <IconCmp size={20} stroke={1.7} />
          </ThemeIcon>
          <Title order={4} fz="md">
            {title}
          </Title>
        </Group>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** One figure with its label; a skeleton while loading. */
export function Stat({
  label,
  value,
  loading = false,
  color,
  compact = false,
}: {
  label: string;
  value: ReactNode;
  loading?: boolean;
  color?: string;
  /** Smaller type for long values such as amounts. */
  compact?: boolean;
}) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.03em' }}>
        {label}
      </Text>
      {loading ? (
        <Skeleton h={26} w="60%" />
      ) : (
        <Text fw={700} fz={compact ? 'lg' : 'xl'} c={color} style={{ fontVariantNumeric: 'tabular-nums' }} lh={1.2}>
          {value}
        </Text>
      )}
    </Stack>
  );
}

/** What a card shows when its section failed to load. */
export function SectionError({ what }: { what: string }) {
  return (
    <Text size="sm" c="red" role="alert">
      Failed to load {what}.
    </Text>
  );
}

export function RecentEmpty({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" py="xs">
      {children}
    </Text>
  );
}
