import { Anchor, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { TICKET_CATEGORY_LABELS } from '@kidogo/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { useTickets } from '../api/get-tickets';
import type { Ticket } from '../api/types';
import { ticketsHref } from '../routes/screen-params';
import { NewTicketButton } from './open-ticket-modal';
import { AssigneeCell, OpenedCell, StatusCell, ticketNumber, UpdateTicketButton } from './tickets-table';
import { UpdateTicketModal } from './update-ticket-modal';

/** The card lists this many, newest first; the rest are a link away. */
export const DEVICE_TICKETS_LIMIT = 10;

/** "3 tickets · 1 active"; the active count only when every ticket is listed (it is counted from the rows). */
function summary(total: number, listed: number, active: number): string {
  if (total === 0) return 'Faults, installations and other work on this device';
  const tickets = total === 1 ? '1 ticket' : `${total.toLocaleString()} tickets`;
  return listed >= total ? `${tickets} · ${active} active` : tickets;
}

/**
 * Service Tickets of one device, on its page: every status, newest first,
 * with New Ticket for this device and Update on each.
 */
export function DeviceTicketsCard({ serialNumber }: { serialNumber: string }) {
  const tickets = useTickets({ page: 1, limit: DEVICE_TICKETS_LIMIT, status: 'all', serial_number: serialNumber });
  const [updating, setUpdating] = useState<Ticket | null>(null);
  const rows = tickets.data?.data;
  const total = tickets.data?.total ?? 0;
  const active = rows?.filter((t) => t.status !== 'resolved').length ?? 0;

  const columns: Column<Ticket>[] = [
    {
      key: 'ticket',
      header: 'Ticket',
      render: (t) => (
        <Stack gap={0} maw={320}>
          <Text size="sm" fw={600}>
            {ticketNumber(t)}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2} title={t.description} style={{ overflowWrap: 'anywhere' }}>
            {t.description}
          </Text>
        </Stack>
      ),
    },
    { key: 'category', header: 'Category', render: (t) => <Text size="sm">{TICKET_CATEGORY_LABELS[t.category]}</Text> },
    { key: 'status', header: 'Status', render: (t) => <StatusCell ticket={t} /> },
    { key: 'assigned', header: 'Assigned To', render: (t) => <AssigneeCell ticket={t} /> },
    { key: 'opened', header: 'Opened', render: (t) => <OpenedCell ticket={t} /> },
    { key: 'actions', header: 'Actions', align: 'right', render: (t) => <UpdateTicketButton ticket={t} onUpdate={setUpdating} /> },
  ];

  return (
    <Card padding="lg" radius="md" mb="lg" role="region" aria-label="Service Tickets">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconTool size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>Service Tickets</Title>
            <Text size="sm" c="dimmed">
              {summary(total, rows?.length ?? 0, active)}
            </Text>
          </div>
        </Group>
        <NewTicketButton serialNumber={serialNumber} variant="light" />
      </Group>
      <DataTable
        caption={`Service Tickets of ${serialNumber}`}
        columns={columns}
        rows={rows}
        rowKey={(t) => t.ticket_id}
        loading={tickets.isPending}
        error={tickets.isError ? errorMessage(tickets.error, 'Failed to load the tickets') : null}
        onRetry={() => void tickets.refetch()}
        emptyText="No tickets for this device"
        emptyHint="Open one with New Ticket when the customer reports a problem with it."
        minWidth={760}
      />
      {total > (rows?.length ?? 0) ? (
        <Text size="sm" c="dimmed" mt="sm">
          The {rows?.length} newest of {total}.{' '}
          <Anchor component={Link} to={ticketsHref({ serial: serialNumber, status: 'all' })} size="sm">
            See them all in Service Tickets
          </Anchor>
        </Text>
      ) : null}
      <UpdateTicketModal ticket={updating} onClose={() => setUpdating(null)} />
    </Card>
  );
}
