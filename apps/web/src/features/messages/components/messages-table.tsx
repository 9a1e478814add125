import { Button, Stack, Text, Tooltip } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import type { MessageRow } from '../api/types';
import { MessageStatusBadges } from './message-status';

function MessageText({ text }: { text: string | null }) {
  if (!text) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Tooltip label={text} multiline w={420} openDelay={300} withinPortal>
      <Text size="sm" lineClamp={3} miw={180} maw={340} style={{ wordBreak: 'break-word' }}>
        {text}
      </Text>
    </Tooltip>
  );
}

/** A payment reminder (Settings → Payment Reminders): an outgoing SMS with no message received and no payment. */
export const isReminder = (m: Pick<MessageRow, 'Incoming' | 'Outgoing' | 'payment_id' | 'sent_by'>): boolean =>
  !m.Incoming && m.payment_id === null && !!m.Outgoing && !m.sent_by;

/** The number the reply goes to; a dash when there is no reply or nobody to send it to. */
export const recipient = (m: Pick<MessageRow, 'recipient_number'>): string => m.recipient_number || '—';

export function MessagesTable({
  rows,
  loading,
  error,
  onRetry,
  searching,
  canMatch,
  onMatch,
}: {
  rows: MessageRow[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  searching: boolean;
  canMatch: boolean;
  onMatch: (message: MessageRow) => void;
}) {
  const orgCurrency = useOrganizationCurrency();
  const columns: Column<MessageRow>[] = [
    {
      key: 'in',
      header: 'Incoming',
      render: (m) => (
        <Stack gap={2}>
          {m.sent_by && !m.Incoming ? (
            <Text size="sm" c="dimmed" fs="italic">
              SMS from {m.sent_by}
            </Text>
          ) : isReminder(m) ? (
            <Text size="sm" c="dimmed" fs="italic">
              Payment reminder
            </Text>
          ) : (
            <MessageText text={m.Incoming} />
          )}
          {m.Incoming && m.sender ? (
            <Text size="xs" c="dimmed">
              From {m.sender}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'out', header: 'Outgoing', render: (m) => <MessageText text={m.Outgoing} /> },
    {
      key: 'to',
      header: 'Recipient Number',
      render: (m) => {
        const to = recipient(m);
        return (
          <Text size="sm" c={to === '—' ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
            {to}
          </Text>
        );
      },
    },
    { key: 'amount', header: 'Amount', align: 'right', render: (m) => (m.amount ? <Money amount={m.amount} currency={m.currency ?? orgCurrency} size="sm" fw={600} /> : '—') },
    { key: 'date', header: 'Date', render: (m) => <DateText value={m.date} withTime /> },
    {
      key: 'status',
      header: 'Status',
      width: 170,
      render: (m) => (
        <Stack gap={6} align="flex-start">
          <MessageStatusBadges status={m.status} delivery={m.delivery_status} />
          {m.note ? (
            <Text size="xs" c="dimmed">
              {m.note}
            </Text>
          ) : null}
          {canMatch && m.status === 'unmatched' && m.payment_id !== null ? (
            <Button size="compact-xs" variant="light" color="orange" leftSection={<IconLink size={12} />} onClick={() => onMatch(m)}>
              Match
            </Button>
          ) : null}
        </Stack>
      ),
    },
  ];
  return (
    <DataTable
      caption="Messages"
      columns={columns}
      rows={rows}
      rowKey={(m) => m.id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText="No messages found"
      emptyHint={searching ? 'Try adjusting your search terms' : 'Messages will appear here when they are received'}
      minWidth={900}
    />
  );
}
