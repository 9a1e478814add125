import { Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { API_BASE } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { useHealth } from '../api/get-health';

export const LOAD_FAILED = 'Failed to load configuration';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Read-only: where the API is, which build this is, and whether the API and database answer. */
export function SystemConfigCard() {
  const health = useHealth();
  const { user, organizationId } = useSession();
  const org = user?.organization_details;
  const online = health.data?.status === 'healthy';
  const connected = health.data?.database === 'connected';

  return (
    <Card padding="lg" component="section" aria-label="System Configuration">
      <Group gap="sm" mb="md">
        <IconServer size={20} />
        <Title order={4}>System Configuration</Title>
      </Group>
      {health.isError ? (
        <ErrorAlert message={LOAD_FAILED} onRetry={() => void health.refetch()} retrying={health.isFetching} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
          <Row label="API Base URL">
            <Text span ff="monospace" size="sm">
              {`${window.location.origin}${API_BASE}`}
            </Text>
          </Row>
          <Row label="Environment">{import.meta.env.PROD ? 'Production' : 'Development'}</Row>
          <Row label="Status">
            {health.isPending ? (
              <Group gap={6}>
                <Loader size="xs" />
                <Text span size="sm" c="dimmed">
                  Checking status...
                </Text>
              </Group>
            ) : (
              <Group gap="xs">
                <Badge color={online ? 'green' : 'red'} variant="light">
                  {online ? 'Online' : 'Offline'}
                </Badge>
                <Badge color={connected ? 'green' : 'red'} variant="light">
                  {connected ? 'Connected' : 'Disconnected'}
                </Badge>
              </Group>
            )}
          </Row>
          <Row label="Last Updated">{health.dataUpdatedAt ? formatDate(health.dataUpdatedAt, true) : '—'}</Row>
          <Row label="Organization">
            {org?.name ?? organizationId ?? '—'}
            {org?.name && organizationId ? (
              <Text span size="xs" c="dimmed">
                {' '}
                ({organizationId})
              </Text>
            ) : null}
          </Row>
          <Row label="Signed in as">
            {user?.username ?? '—'}
            {user?.role ? (
              <Text span size="xs" c="dimmed">
                {' '}
                ({user.role.replace('_', ' ')})
              </Text>
            ) : null}
          </Row>
        </SimpleGrid>
      )}
    </Card>
  );
}
