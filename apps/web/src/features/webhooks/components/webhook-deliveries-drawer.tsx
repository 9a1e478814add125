import { Accordion, Badge, Button, Code, Drawer, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '@kidogo/contracts';
import { useState } from 'react';
import { DateText, formatDate } from '@/components/ui/date-text';
import { TableState } from '@/components/ui/data-table';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useRedeliver, useWebhookDeliveries } from '../api/webhooks';

export const DELIVERY_STATUS: Record<WebhookDeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'yellow' },
  delivering: { label: 'Sending', color: 'blue' },
  delivered: { label: 'Delivered', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Waiting' },
  { value: 'delivered', label: 'Delivered' },
];

/** The outcome in a line: "HTTP 200 in 84 ms", "HTTP 500 · retry at 10:42", "unreachable: ECONNREFUSED". */
export function outcomeLine(d: WebhookDelivery): string {
  const parts: string[] = [];
  if (d.response_status !== null) parts.push(`HTTP ${d.response_status}${d.duration_ms !== null ? ` in ${d.duration_ms} ms` : ''}`);
  else if (d.error) parts.push(d.error);
  if (d.status === 'pending' && d.next_attempt_at) parts.push(`${d.attempts ? 'retry' : 'sending'} ${formatDate(d.next_attempt_at, true)}`);
  if (d.attempts > 1) parts.push(`${d.attempts} attempts`);
  return parts.join(' · ') || 'Not sent yet';
}

function DeliveryItem({ endpointId, d }: { endpointId: number; d: WebhookDelivery }) {
  const redeliver = useRedeliver();
  const status = DELIVERY_STATUS[d.status];
  return (
    <Accordion.Item value={String(d.id)}>
      <Accordion.Control aria-label={`Delivery ${d.id}: ${d.event_type}, ${status.label}`}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="nowrap">
              <Badge color={status.color} variant="light" size="sm">
                {status.label}
              </Badge>
              <Text size="sm" ff="monospace" truncate>
                {d.event_type}
              </Text>
            </Group>
            <Text size="xs" c={d.status === 'failed' ? 'red' : 'dimmed'} mt={2} truncate>
              {outcomeLine(d)}
            </Text>
          </div>
          <DateText value={d.created_at} withTime c="dimmed" size="xs" />
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="xs">
          {d.error && d.response_status !== null ? (
            <Text size="sm" c="red">
              {d.error}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            Event {d.event_id} · delivery {d.id}
            {d.delivered_at ? ` · delivered ${formatDate(d.delivered_at, true)}` : ''}
          </Text>
          <Text size="sm" fw={500}>
            Body sent
          </Text>
          <Code block style={{ maxHeight: 260, overflow: 'auto' }}>
            {JSON.stringify(d.payload, null, 2)}
          </Code>
          {d.response_body ? (
            <>
              <Text size="sm" fw={500}>
                Endpoint&apos;s answer
              </Text>
              <Code block>{d.response_body}</Code>
            </>
          ) : null}
          {redeliver.isError ? <ErrorAlert message={errorMessage(redeliver.error, 'Failed to send it again')} /> : null}
          <Group>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              loading={redeliver.isPending}
              disabled={d.status === 'delivering'}
              onClick={() =>
                redeliver.mutate(
                  { id: endpointId, deliveryId: d.id },
                  {
                    onSuccess: (r) =>
                      r.status === 'delivered'
                        ? toast.success(`Delivered again: HTTP ${r.response_status}`)
                        : toast.warning(`Not delivered: ${r.error ?? 'no answer'}`),
                  },
                )
              }
            >
              Send Again
            </Button>
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** An endpoint's delivery log: every event sent to it, what it answered, and Send Again. */
export function WebhookDeliveriesDrawer({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const [filter, setFilter] = useState('all');
  const status = filter === 'all' ? null : (filter as WebhookDeliveryStatus);
  const deliveries = useWebhookDeliveries(endpoint?.id ?? null, status);
  const rows = deliveries.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Drawer opened={endpoint !== null} onClose={onClose} position="right" size="xl" title={endpoint ? `Deliveries to ${endpoint.url}` : 'Deliveries'}>
      {endpoint ? (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Each event sent to this endpoint, newest first. A failed attempt is tried again after 1 min, 5 min, 30 min, 2 h, 6 h and 24 h; kept
            for 30 days.
          </Text>
          <SegmentedControl data={FILTERS} value={filter} onChange={setFilter} aria-label="Show deliveries" />
          <TableState
            loading={deliveries.isPending}
            error={deliveries.isError ? errorMessage(deliveries.error, 'Failed to load the deliveries') : null}
            onRetry={() => void deliveries.refetch()}
            isEmpty={rows.length === 0}
            emptyText={status ? `No ${DELIVERY_STATUS[status].label.toLowerCase()} deliveries` : 'Nothing sent yet'}
            emptyHint={status ? null : 'Send a test event, or wait for the next payment.'}
          />
          {rows.length ? (
            <Accordion variant="separated" chevronPosition="left">
              {rows.map((d) => (
                <DeliveryItem key={d.id} endpointId={endpoint.id} d={d} />
              ))}
            </Accordion>
          ) : null}
          {deliveries.hasNextPage ? (
            <Group justify="center">
              <Button variant="default" loading={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
                Load Older
              </Button>
            </Group>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
