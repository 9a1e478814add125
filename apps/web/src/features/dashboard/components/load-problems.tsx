import { Alert, Anchor, Button, Code, Collapse, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconChartDots } from '@tabler/icons-react';
import { useState } from 'react';
import { API_BASE } from '@/lib/api-client';

/** The dashboard's data sections, named as the partial-failure banner names them (spec §2). */
export type DashboardSection = 'Customers' | 'Payments' | 'Metrics' | 'Tokens';

export interface SectionFailure {
  section: DashboardSection;
  message: string;
}

/** The API base as the browser reaches it, for the debug info. */
export const apiBaseUrl = () => `${window.location.origin}${API_BASE}`;

/** 'Some data failed to load', naming the sections, with debug info and Retry. */
export function PartialFailureBanner({ failures, onRetry }: { failures: SectionFailure[]; onRetry: () => void }) {
  const [debug, setDebug] = useState(false);
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Some data failed to load" role="alert">
      <Stack gap="xs">
        <Text size="sm">Failed to load: {failures.map((f) => f.section).join(', ')}</Text>
        <Group gap="sm">
          <Button size="xs" variant="outline" color="yellow" onClick={onRetry}>
            Retry
          </Button>
          <Anchor component="button" type="button" size="xs" onClick={() => setDebug((v) => !v)} aria-expanded={debug}>
            {debug ? 'Hide debug info' : 'Show debug info'}
          </Anchor>
        </Group>
        <Collapse expanded={debug}>
          <Code block fz="xs">
            {[`API base: ${apiBaseUrl()}`, ...failures.map((f) => `${f.section}: ${f.message}`)].join('\n')}
          </Code>
        </Collapse>
      </Stack>
    </Alert>
  );
}

/** 'No data available' with Retry: the organization has nothing to show yet. */
export function EmptyDashboard({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert color="gray" variant="light" icon={<IconChartDots size={18} />} title="No data available">
      <Stack gap="xs">
        <Text size="sm">
          There are no customers, payments or tokens yet. Register customers and assign devices, and their payments and
          tokens will show here.
        </Text>
        <Group>
          <Button size="xs" variant="default" onClick={onRetry}>
            Retry
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
