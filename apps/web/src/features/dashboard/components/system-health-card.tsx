import type { Health } from '@kidogo/contracts';
import { ActionIcon, Badge, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconHeartbeat, IconRefresh } from '@tabler/icons-react';
import { formatDate } from '@/components/ui/date-text';
import { SectionCard } from './section-card';

interface Line {
  name: string;
  label: string;
  color: string;
}

/**
 * What each component reads as (spec §2/§4). A failed health call means the
 * API is down and nothing is known about the rest.
 */
export function healthLines(health: Health | undefined, failed: boolean): Line[] {
  if (failed || !health) {
    return [
      { name: 'API', label: failed ? 'Down' : 'Unknown', color: failed ? 'red' : 'gray' },
      { name: 'Database', label: 'Unknown', color: 'gray' },
      { name: 'External Services', label: 'Unknown', color: 'gray' },
    ];
  }
  const external: Record<string, Omit<Line, 'name'>> = {
    operational: { label: 'Operational', color: 'green' },
    degraded: { label: 'Degraded', color: 'yellow' },
    not_configured: { label: 'Not configured', color: 'gray' },
  };
  return [
    health.status === 'healthy'
      ? { name: 'API', label: 'Operational', color: 'green' }
      : { name: 'API', label: 'Down', color: 'red' },
    health.database === 'connected'
      ? { name: 'Database', label: 'Connected', color: 'green' }
      : { name: 'Database', label: 'Disconnected', color: 'red' },
    { name: 'External Services', ...(external[health.external_services] ?? { label: 'Unknown', color: 'gray' }) },
  ];
}

export function SystemHealthCard({
  health,
  failed,
  checking,
  checkedAt,
  onRefresh,
}: {
  health?: Health;
  failed: boolean;
  checking: boolean;
  checkedAt: number;
  onRefresh: () => void;
}) {
  return (
    <SectionCard
      title="System Health"
      icon={IconHeartbeat}
      color="red"
      action={
        <Tooltip label="Check again" withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label="Refresh system health" onClick={onRefresh} loading={checking}>
            <IconRefresh size={18} />
          </ActionIcon>
        </Tooltip>
      }
    >
      {checking && !health && !failed ? (
        <Group gap="xs" py="sm" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking status...
          </Text>
        </Group>
      ) : (
        <Stack gap="sm">
          {healthLines(health, failed).map((l) => (
            <Group key={l.name} justify="space-between">
              <Text size="sm" fw={500}>
                {l.name}
              </Text>
              <Badge color={l.color} variant="light" radius="sm" aria-label={`${l.name}: ${l.label}`}>
                {l.label}
              </Badge>
            </Group>
          ))}
          <Text size="xs" c="dimmed" mt={4}>
            {checking ? 'Checking status...' : checkedAt ? `Last checked ${formatDate(checkedAt, true)}` : null}
          </Text>
        </Stack>
      )}
    </SectionCard>
  );
}
