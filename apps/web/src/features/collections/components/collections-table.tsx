import { Group, Stack, Text } from '@mantine/core';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { formatMoney, Money } from '@/components/ui/money';
import type { SmsTarget } from '@/features/customer-sms/components/send-sms-modal';
import type { AskToPayTarget } from '@/features/mpesa-express/components/ask-to-pay-modal';
import type { CollectionAccount } from '../api/types';
import { DaysWithoutCredit } from './days-without-credit';
import { BREAK_ANYWHERE, ContactActions, dash, deviceColumns } from './device-columns';
import { LastContact } from './last-contact';
import { OpenTicketMark } from './open-ticket-mark';

/**
 * The devices out of credit. Customer and Phone come first: on a phone the
 * table scrolls sideways and those two, whom to call and how, stay in view.
 * `currency` is the organization's, for amounts of a customer on no plan.
 */
export function CollectionsTable({
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
  rows: CollectionAccount[] | undefined;
  currency: string | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  emptyText: string;
  emptyHint?: string;
  onLogContact: (account: CollectionAccount) => void;
  /** Text the row's customer about its device; no button without it. */
  onSendSms?: (target: SmsTarget) => void;
  /** Ask the row's customer to pay with M-Pesa Express; no button without it. */
  onAskToPay?: (target: AskToPayTarget) => void;
}) {
  const columns: Column<CollectionAccount>[] = [
    ...deviceColumns<CollectionAccount>(),
    {
      key: 'days',
      header: 'Days Without Credit',
      render: (a) => (
        <Stack gap={4} align="flex-start">
          <DaysWithoutCredit account={a} />
          {a.open_ticket ? <OpenTicketMark account={a} /> : null}
        </Stack>
      ),
    },
    {
      key: 'last-payment',
      header: 'Last Payment',
      render: (a) =>
        a.last_payment_at ? (
          <Stack gap={0}>
            <DateText value={a.last_payment_at} />
            {a.last_payment_amount !== null ? <Money amount={a.last_payment_amount} currency={a.currency ?? currency} size="xs" c="dimmed" /> : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            No payments
          </Text>
        ),
    },
    {
      key: 'last-contact',
      header: 'Last Contact',
      // Log Contact sits beside what it adds to, not in a column of its own: the table fits a laptop without scrolling sideways.
      render: (a) => (
        <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
          <LastContact contact={a.last_contact} />
          <ContactActions
            row={a}
            onLogContact={onLogContact}
            onSendSms={onSendSms}
            onAskToPay={onAskToPay}
            payHints={{ dailyPrice: a.daily_price, remaining: a.remaining, currency: a.currency ?? currency }}
          />
        </Group>
      ),
    },
    {
      key: 'plan',
      header: 'Plan',
      render: (a) =>
        a.template_name ? (
          <Stack gap={0}>
            <Text size="sm" style={BREAK_ANYWHERE}>
              {a.template_name}
            </Text>
            {a.daily_price !== null ? (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(a.daily_price, a.currency ?? currency)} / day
              </Text>
            ) : null}
          </Stack>
        ) : (
          dash
        ),
    },
    {
      key: 'remaining',
      header: 'Remaining',
      align: 'right',
      render: (a) => (a.remaining !== null ? <Money amount={a.remaining} currency={a.currency ?? currency} size="sm" /> : dash),
    },
  ];
  return (
    <DataTable
      caption="Collections"
      columns={columns}
      rows={rows}
      rowKey={(a) => a.item_id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={emptyText}
      emptyHint={emptyHint}
      minWidth={1000}
    />
  );
}
