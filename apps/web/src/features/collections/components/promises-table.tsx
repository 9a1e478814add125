import { Group, Stack, Text } from '@mantine/core';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import type { SmsTarget } from '@/features/customer-sms/components/send-sms-modal';
import type { AskToPayTarget } from '@/features/mpesa-express/components/ask-to-pay-modal';
import type { PromiseRow } from '../api/types';
import { DaysBadge } from './days-without-credit';
import { ContactActions, dash, deviceColumns } from './device-columns';
import { formatDay, loggedText } from './last-contact';
import { PromiseStatusBadge } from './promise-status-badge';

/** The day promised, who logged the promise and when, and what they noted: one line of the note, all of it on hover. */
function PromisedDay({ promise }: { promise: PromiseRow }) {
  const { contact } = promise;
  return (
    <Stack gap={2} align="flex-start" miw={0}>
      {contact.promised_on ? (
        <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
          {formatDay(contact.promised_on)}
        </Text>
      ) : (
        dash
      )}
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        Logged {loggedText(contact)}
      </Text>
      {contact.note ? (
        <Text size="xs" truncate="end" maw={220} title={contact.note}>
          {contact.note}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Each device's latest promise to pay and what came of it. As on Out of
 * Credit, Customer and Phone come first and Log Contact sits beside the
 * promise it follows up. `currency` is the organization's: the payment's
 * amount comes without one.
 */
export function PromisesTable({
  rows,
  currency,
  loading,
  error,
  onRetry,
  emptyText,
  emptyHint,
  onLogContact,
  onSendSms,
  onAskToPay,
}: {
  rows: PromiseRow[] | undefined;
  currency: string | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  emptyText: string;
  emptyHint?: string;
  onLogContact: (promise: PromiseRow) => void;
  /** Text the row's customer about its device; no button without it. */
  onSendSms?: (target: SmsTarget) => void;
  /** Ask the row's customer to pay with M-Pesa Express; no button without it. */
  onAskToPay?: (target: AskToPayTarget) => void;
}) {
  const columns: Column<PromiseRow>[] = [
    ...deviceColumns<PromiseRow>(),
    {
      key: 'promised-day',
      header: 'Promised Day',
      render: (p) => (
        <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
          <PromisedDay promise={p} />
          <ContactActions row={p} onLogContact={onLogContact} onSendSms={onSendSms} onAskToPay={onAskToPay} />
        </Group>
      ),
    },
    { key: 'status', header: 'Status', render: (p) => <PromiseStatusBadge status={p.status} /> },
    {
      key: 'payment',
      header: 'Payment',
      render: (p) =>
        p.paid_at ? (
          <Stack gap={0}>
            <DateText value={p.paid_at} />
            {p.paid_amount !== null ? <Money amount={p.paid_amount} currency={currency} size="xs" c="dimmed" /> : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Not paid yet
          </Text>
        ),
    },
    {
      key: 'credit',
      header: 'Credit',
      render: (p) =>
        p.days_without_credit !== null ? (
          <Stack gap={2} align="flex-start">
            <DaysBadge days={p.days_without_credit} />
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              without credit
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Has credit
          </Text>
        ),
    },
  ];
  return (
    <DataTable
      caption="Promises to pay"
      columns={columns}
      rows={rows}
      rowKey={(p) => p.contact.contact_id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={emptyText}
      emptyHint={emptyHint}
      minWidth={1000}
    />
  );
}
