import { Anchor, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { TICKET_CATEGORY_LABELS } from '@kidogo/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { ticketsQueryOptions, useTickets } from '../api/get-tickets';
import type { Ticket, TicketsListQuery } from '../api/types';
import { ticketsHref } from '../routes/screen-params';
import { NewTicketButton, type TicketDevice } from './open-ticket-modal';
import { AssigneeCell, DeviceCell, OpenedCell, StatusCell, ticketNumber, UpdateTicketButton } from './tickets-table';
import { UpdateTicketModal } from './update-ticket-modal';

/** The card lists this many, newest first. */
export const TICKETS_CARD_LIMIT = 10;

export const NO_DEVICE_TO_OPEN = 'No device to open a ticket for';

/** One device's tickets: its page. */
interface DeviceScope {
  serialNumber: string;
}

/** One customer's tickets, on any of their devices: their page. */
interface CustomerScope {
  customerId: number;
  customerName: string;
  /** The customer's devices: New Ticket is for one of them. */
  devices: readonly TicketDevice[];
  /** False hides New Ticket (an erased customer); the list stays. */
  canOpen?: boolean;
}

export type TicketsCardProps = DeviceScope | CustomerScope;

/** What differs between the device's card and the customer's. */
interface CardView {
  query: Pick<TicketsListQuery, 'serial_number' | 'customer_id'>;
  caption: string;
  about: string;
  emptyText: string;
  emptyHint: ReactNode;
  /** A customer has several devices: each row says which. */
  deviceColumn: boolean;
  /** Where the rest are, when the card does not list them all. */
  allHref: string;
  action: ReactNode;
}

function deviceView({ serialNumber }: DeviceScope): CardView {
  return {
    query: { serial_number: serialNumber },
    caption: `Service Tickets of ${serialNumber}`,
    about: 'Faults, installations and other work on this device',
    emptyText: 'No tickets for this device',
    emptyHint: 'Open one with New Ticket when the customer reports a problem with it.',
    deviceColumn: false,
    allHref: ticketsHref({ serial: serialNumber, status: 'all' }),
    action: <NewTicketButton serialNumber={serialNumber} variant="light" />,
  };
}

function customerView({ customerId, customerName, devices, canOpen = true }: CustomerScope): CardView {
  // One device: the ticket can only be for it, filled in. None: nothing to open a ticket for.
  const action = !canOpen ? null : devices.length === 0 ? (
    <Text size="sm" c="dimmed">
      {NO_DEVICE_TO_OPEN}
    </Text>
  ) : devices.length === 1 ? (
    <NewTicketButton serialNumber={devices[0]!.serial_number} variant="light" />
  ) : (
    <NewTicketButton devices={devices} variant="light" />
  );
  return {
    query: { customer_id: customerId },
    caption: `Service Tickets of ${customerName}`,
    about: "Faults, installations and other work on the customer's devices",
    emptyText: 'No tickets for this customer',
    emptyHint: canOpen && devices.length > 0 ? 'Open one with New Ticket when the customer reports a problem with a device.' : null,
    deviceColumn: true,
    allHref: ticketsHref({ customer: customerId, status: 'all' }),
    action,
  };
}

/** "3 tickets · 1 active"; just "14 tickets" while the active ones are being counted. */
function summary(total: number, active: number | null, about: string): string {
  if (total === 0) return about;
  const tickets = total === 1 ? '1 ticket' : `${total.toLocaleString()} tickets`;
  return active === null ? tickets : `${tickets} · ${active.toLocaleString()} active`;
}

/**
 * How many of the scope's tickets are open or in progress: counted from the
 * rows when the card lists them all, else asked of the API (one row, status
 * active, read for its total).
 */
function useActiveCount(query: CardView['query'], rows: readonly Ticket[] | undefined, total: number): number | null {
  const listsAll = rows !== undefined && rows.length >= total;
  const counted = useQuery({ ...ticketsQueryOptions({ page: 1, limit: 1, status: 'active', ...query }), enabled: rows !== undefined && !listsAll });
  if (rows === undefined) return null;
  if (listsAll) return rows.filter((t) => t.status !== 'resolved').length;
  return counted.data && !counted.data.suspended ? counted.data.total : null;
}

/**
 * Service Tickets of one device (its page) or one customer (theirs): every
 * status, newest first, with New Ticket and Update on each.
 */
export function TicketsCard(props: TicketsCardProps) {
  const view = 'serialNumber' in props ? deviceView(props) : customerView(props);
  const tickets = useTickets({ page: 1, limit: TICKETS_CARD_LIMIT, status: 'all', ...view.query });
  const [updating, setUpdating] = useState<Ticket | null>(null);
  const rows = tickets.data?.data;
  const listed = rows?.length ?? 0;
  const total = tickets.data?.total ?? 0;
  const active = useActiveCount(view.query, rows, total);

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
    ...(view.deviceColumn ? [{ key: 'device', header: 'Device', render: (t: Ticket) => <DeviceCell ticket={t} /> }] : []),
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
              {summary(total, active, view.about)}
            </Text>
          </div>
        </Group>
        {view.action}
      </Group>
      <DataTable
        caption={view.caption}
        columns={columns}
        rows={rows}
        rowKey={(t) => t.ticket_id}
        loading={tickets.isPending}
        error={tickets.isError ? errorMessage(tickets.error, 'Failed to load the tickets') : null}
        onRetry={() => void tickets.refetch()}
        emptyText={view.emptyText}
        emptyHint={view.emptyHint}
        minWidth={view.deviceColumn ? 920 : 760}
      />
      {total > listed ? (
        <Text size="sm" c="dimmed" mt="sm">
          The {listed} newest of {total.toLocaleString()}.{' '}
          <Anchor component={Link} to={view.allHref} size="sm">
            See them all in Service Tickets
          </Anchor>
        </Text>
      ) : null}
      <UpdateTicketModal ticket={updating} onClose={() => setUpdating(null)} />
    </Card>
  );
}
