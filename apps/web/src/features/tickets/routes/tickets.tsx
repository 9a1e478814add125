import { Alert, Badge, Button, Card, CloseButton, Group, Switch, Tabs, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { PaginationControl } from '@/components/ui/pagination-control';
import { SEARCH_DEBOUNCE_MS, SearchBar } from '@/components/ui/search-bar';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useTicket } from '../api/get-ticket';
import { TICKETS_PAGE_SIZE, useTickets, type TicketCounts } from '../api/get-tickets';
import { ticketKeys } from '../api/keys';
import type { Ticket, TicketStatusFilter } from '../api/types';
import { NewTicketButton } from '../components/open-ticket-modal';
import { TicketsTable } from '../components/tickets-table';
import { UpdateTicketModal } from '../components/update-ticket-modal';
import { readTicketsParams, ticketsSearch, type TicketsScreenParams } from './screen-params';

export const LOAD_FAILED = 'Failed to load tickets';

/** The tabs, in the order work moves: what needs doing first, then each status, then everything. */
const TABS: { value: TicketStatusFilter; label: string; count: (c: TicketCounts) => number }[] = [
  { value: 'active', label: 'Active', count: (c) => c.open + c.in_progress },
  { value: 'open', label: 'Open', count: (c) => c.open },
  { value: 'in_progress', label: 'In Progress', count: (c) => c.in_progress },
  { value: 'resolved', label: 'Resolved', count: (c) => c.resolved },
  { value: 'all', label: 'All', count: (c) => c.open + c.in_progress + c.resolved },
];

const EMPTY_HINTS: Record<TicketStatusFilter, string> = {
  active: 'Every ticket is resolved. Open one with New Ticket when a customer reports a problem.',
  open: 'Nothing is waiting for someone to start on it.',
  in_progress: 'Nobody is working on a ticket right now.',
  resolved: 'No ticket has been resolved yet.',
  all: 'Open one with New Ticket when a customer reports a problem with a device.',
};

/** The empty list's hint when the search, the customer or the switch hides tickets: what hid them, and how to see more. */
function filteredHint(serial: string, customer: boolean, mine: boolean): string {
  const what = [mine ? 'assigned to you' : null, customer ? 'for this customer' : null, serial ? `for device ${serial}` : null].filter(Boolean).join(' ');
  const undo = [serial ? 'clear the search' : null, customer ? 'remove the customer filter' : null, mine ? 'turn off Assigned to me' : null]
    .filter(Boolean)
    .join(' or ');
  return `None ${what} in this tab: ${undo} to see more.`;
}

/**
 * The customer the list is filtered on, by name once a row has told it (a tab
 * with none of their tickets keeps the name last seen), "#id" until then.
 */
function useCustomerLabel(customer: number | null, rows: readonly Ticket[] | undefined): string {
  const [known, setKnown] = useState<{ id: number; name: string } | null>(null);
  const name = customer === null ? undefined : rows?.find((t) => t.customer_id === customer && t.customer_name)?.customer_name;
  if (customer !== null && name && (known?.id !== customer || known.name !== name)) setKnown({ id: customer, name });
  if (customer === null) return '';
  return name ?? (known?.id === customer ? known.name : `#${customer}`);
}

function CustomerFilter({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Badge
      size="lg"
      variant="light"
      radius="sm"
      tt="none"
      fw={500}
      maw="100%"
      rightSection={<CloseButton size="xs" variant="transparent" c="inherit" aria-label="Remove customer filter" onClick={onRemove} />}
      pr={4}
    >
      Customer: {label}
    </Badge>
  );
}

/** A ticket a link asked for (?ticket=) that could not be read: not the organization's, gone, or the server failing. */
function LinkedTicketAlert({ ticketId, error, onRetry, onClose }: { ticketId: number; error: unknown; onRetry: () => void; onClose: () => void }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <Alert
      color={missing ? 'yellow' : 'red'}
      variant="light"
      icon={<IconAlertCircle size={18} />}
      title={missing ? `Ticket #${ticketId} was not found` : `Failed to load Ticket #${ticketId}`}
      role="alert"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      mb="lg"
    >
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Text size="sm">
          {missing ? "It is not one of your organization's tickets, or it was deleted with its device." : errorMessage(error, 'Something went wrong')}
        </Text>
        {missing ? null : (
          <Button size="xs" color="red" variant="outline" onClick={onRetry}>
            Retry
          </Button>
        )}
      </Group>
    </Alert>
  );
}

function TabLabel({ children, count }: { children: ReactNode; count: number | null }) {
  return (
    <Group gap={6} wrap="nowrap">
      {children}
      {count === null ? null : (
        <Badge miw="max-content" size="sm" variant="light" radius="sm" aria-label={`${count} tickets`}>
          {count}
        </Badge>
      )}
    </Group>
  );
}

/**
 * The serial number box: what is typed shows at once, and reaches the URL
 * (and the list) after a pause, or at once on Enter.
 */
function useSerialSearch(applied: string, apply: (serial: string) => void) {
  const [input, setInput] = useState(applied);
  const [lastApplied, setLastApplied] = useState(applied);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The URL changed under the box (the sidebar's link, Back): the box follows it.
  if (applied !== lastApplied) {
    setLastApplied(applied);
    if (input.trim() !== applied) setInput(applied);
  }
  const applyNow = (value: string) => {
    clearTimeout(timer.current);
    if (value.trim() !== applied) apply(value.trim());
  };
  return {
    input,
    setInput: (value: string) => {
      setInput(value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => applyNow(value), SEARCH_DEBOUNCE_MS);
    },
    submit: () => applyNow(input),
    clear: () => {
      setInput('');
      applyNow('');
    },
  };
}

/** Service Tickets: after-sales work on devices, from the customer's report to its resolution. */
export default function TicketsRoute() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const screen = readTicketsParams(params);
  const { status, serial, customer, mine, page } = screen;
  const [updating, setUpdating] = useState<Ticket | null>(null);
  // A link's ticket (?ticket=, from a notification) opens over the list, whatever the list shows.
  const linked = useTicket(screen.ticket);
  const linkedTicket = screen.ticket !== null && linked.data?.ticket_id === screen.ticket ? linked.data : null;

  const tickets = useTickets({
    page,
    limit: TICKETS_PAGE_SIZE,
    status,
    ...(serial ? { serial_number: serial } : {}),
    ...(customer !== null ? { customer_id: customer } : {}),
    ...(mine ? { mine } : {}),
  });
  const customerLabel = useCustomerLabel(customer, tickets.data?.data);
  const totalPages = tickets.data?.totalPages ?? 0;
  // From the URL as it is when the change lands, not as it was when it was asked for (the search applies after a pause).
  const show = (next: Partial<TicketsScreenParams>) =>
    setParams((current) => ticketsSearch({ ...readTicketsParams(current), ...next }), { replace: true });
  const search = useSerialSearch(serial, (next) => show({ serial: next, page: 1 }));

  // A page past the end (tickets were resolved since the link was made): the last page there is.
  if (!tickets.isPlaceholderData && tickets.isSuccess && totalPages > 0 && page > totalPages) {
    return <Navigate to={{ search: `?${ticketsSearch({ ...screen, page: totalPages })}` }} replace />;
  }

  const counts = tickets.data?.counts ?? null;
  const filtered = serial !== '' || customer !== null || mine;
  const closeUpdate = () => {
    setUpdating(null);
    if (screen.ticket !== null) show({ ticket: null });
  };
  return (
    <>
      <PageHeader
        title="Service Tickets"
        subtitle="After-sales work on devices: faults, installations, codes not accepted and billing questions, from the report to its resolution."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: ticketKeys.all })}
              loading={tickets.isFetching && !tickets.isPending}
            >
              Refresh
            </Button>
            <NewTicketButton />
          </>
        }
      />
      {screen.ticket !== null && linked.isError ? (
        <LinkedTicketAlert ticketId={screen.ticket} error={linked.error} onRetry={() => void linked.refetch()} onClose={() => show({ ticket: null })} />
      ) : null}
      <Tabs value={status} onChange={(v) => v && v !== status && show({ status: v as TicketStatusFilter, page: 1 })} keepMounted={false}>
        <Tabs.List mb="lg">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              <TabLabel count={counts ? t.count(counts) : null}>{t.label}</TabLabel>
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            <Card padding="md" radius="md">
              <Group justify="space-between" align="center" gap="sm" mb="md" wrap="wrap">
                <div style={{ flex: '1 1 280px', maxWidth: 460 }}>
                  <SearchBar
                    label="Search serial number"
                    placeholder="A device's serial number"
                    value={search.input}
                    onChange={search.setInput}
                    onSubmit={search.submit}
                    onClear={search.clear}
                  />
                </div>
                <Group gap="md" wrap="wrap">
                  {customer !== null ? <CustomerFilter label={customerLabel} onRemove={() => show({ customer: null, page: 1 })} /> : null}
                  <Switch label="Assigned to me" checked={mine} onChange={(e) => show({ mine: e.currentTarget.checked, page: 1 })} />
                </Group>
              </Group>
              <TicketsTable
                rows={tickets.data?.data}
                loading={tickets.isPending}
                error={tickets.isError ? errorMessage(tickets.error, LOAD_FAILED) : null}
                onRetry={() => void tickets.refetch()}
                emptyText="No tickets here"
                emptyHint={filtered ? filteredHint(serial, customer !== null, mine) : EMPTY_HINTS[status]}
                onUpdate={setUpdating}
              />
              <PaginationControl page={page} total={tickets.data?.total ?? 0} pageSize={TICKETS_PAGE_SIZE} onPageChange={(next) => show({ page: next })} itemLabel="tickets" />
            </Card>
          </Tabs.Panel>
        ))}
      </Tabs>
      <UpdateTicketModal ticket={updating ?? linkedTicket} onClose={closeUpdate} />
    </>
  );
}
