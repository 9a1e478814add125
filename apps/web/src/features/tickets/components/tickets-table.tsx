import { Button, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { TICKET_CATEGORY_LABELS } from '@kidogo/contracts';
import { Link } from 'react-router-dom';
import { DataTable, type Column, type TableStateProps } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { paths } from '@/config/paths';
import { WarrantyBadge } from '@/features/warranties/components/device-warranty';
import type { Ticket } from '../api/types';
import { daysOpenText, freeDaysText } from './ticket-fields';
import { TicketStatusBadge } from './ticket-status-badge';

/** The link colour of the other tables' names. */
const LINK_COLOR = 'var(--mantine-primary-color-filled)';
const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;

export const ticketNumber = (t: Pick<Ticket, 'ticket_id'>) => `#${t.ticket_id}`;

/** The row's Update button, named for its ticket so a screen reader (and a test) tells the rows apart. */
export function UpdateTicketButton({ ticket, onUpdate }: { ticket: Ticket; onUpdate: (ticket: Ticket) => void }) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPencil size={14} />}
      aria-label={`Update Ticket ${ticketNumber(ticket)}`}
      onClick={() => onUpdate(ticket)}
    >
      Update
    </Button>
  );
}

/** Opened: the day, and how long the customer has waited (or waited, once resolved). */
export function OpenedCell({ ticket }: { ticket: Ticket }) {
  return (
    <Stack gap={0}>
      <DateText value={ticket.opened_at} />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {daysOpenText(ticket.days_open)}
      </Text>
    </Stack>
  );
}

/** Device: its serial number, a link to its page, what it is, and whether it was in warranty when the ticket was opened. */
export function DeviceCell({ ticket }: { ticket: Ticket }) {
  return (
    <Stack gap={2} align="flex-start">
      <Text component={Link} to={paths.app.deviceActivity.getHref(ticket.serial_number)} size="sm" fw={600} ff="monospace" c={LINK_COLOR}>
        {ticket.serial_number}
      </Text>
      <Text size="xs" c="dimmed" style={BREAK_ANYWHERE}>
        {ticket.product_name}
      </Text>
      {ticket.warranty ? <WarrantyBadge warranty={ticket.warranty} size="xs" /> : null}
    </Stack>
  );
}

/** Status: where it stands, and the free days given with its resolution, if any. */
export function StatusCell({ ticket }: { ticket: Ticket }) {
  if (ticket.compensation_days === null) return <TicketStatusBadge status={ticket.status} />;
  return (
    <Stack gap={2} align="flex-start">
      <TicketStatusBadge status={ticket.status} />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {freeDaysText(ticket.compensation_days)}
      </Text>
    </Stack>
  );
}

export function AssigneeCell({ ticket }: { ticket: Ticket }) {
  return ticket.assigned_to ? (
    <Text size="sm">{ticket.assigned_to.username}</Text>
  ) : (
    <Text size="sm" c="dimmed">
      Unassigned
    </Text>
  );
}

/**
 * The Service Tickets list: which device, whose, what kind of problem, where
 * it stands, who has it and how long it has waited; Update opens the ticket.
 */
export function TicketsTable({ rows, onUpdate, ...state }: { rows: Ticket[] | undefined; onUpdate: (ticket: Ticket) => void } & TableStateProps) {
  const columns: Column<Ticket>[] = [
    {
      key: 'ticket',
      header: 'Ticket',
      render: (t) => (
        <Stack gap={0} maw={260}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {ticketNumber(t)}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1} title={t.description} style={BREAK_ANYWHERE}>
            {t.description}
          </Text>
        </Stack>
      ),
    },
    { key: 'device', header: 'Device', render: (t) => <DeviceCell ticket={t} /> },
    {
      key: 'customer',
      header: 'Customer',
      render: (t) =>
        t.customer_id !== null && t.customer_name ? (
          <Stack gap={0}>
            <Text component={Link} to={paths.app.customerPaymentDetails.getHref(t.customer_id)} size="sm" fw={500} c={LINK_COLOR} style={BREAK_ANYWHERE}>
              {t.customer_name}
            </Text>
            {t.phone_number ? (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t.phone_number}
              </Text>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No customer
          </Text>
        ),
    },
    { key: 'category', header: 'Category', render: (t) => <Text size="sm">{TICKET_CATEGORY_LABELS[t.category]}</Text> },
    { key: 'status', header: 'Status', render: (t) => <StatusCell ticket={t} /> },
    { key: 'assigned', header: 'Assigned To', render: (t) => <AssigneeCell ticket={t} /> },
    { key: 'opened', header: 'Opened', render: (t) => <OpenedCell ticket={t} /> },
    { key: 'actions', header: 'Actions', align: 'right', render: (t) => <UpdateTicketButton ticket={t} onUpdate={onUpdate} /> },
  ];
  return <DataTable caption="Service Tickets" columns={columns} rows={rows} rowKey={(t) => t.ticket_id} minWidth={980} {...state} />;
}
