import { Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobileDollar } from '@tabler/icons-react';
import { PAYMENT_REQUEST_PROVIDER_LABELS, type PaymentRequest } from '@kidogo/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { Money } from '@/components/ui/money';
import { PaginationControl } from '@/components/ui/pagination-control';
import { TokenText } from '@/components/ui/token-text';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { refreshAfterWrite } from '@/lib/query-client';
import { isCheckable } from '../api/check-payment-request';
import { PAYMENT_REQUESTS_PAGE_SIZE, usePaymentRequests } from '../api/get-payment-requests';
import { CheckWithMpesaButton } from './check-with-mpesa-button';
import { checkLabel } from './payment-request-provider';
import { formatRequestPhone, PaymentRequestStatusBadge } from './payment-request-status-badge';

export const REQUESTS_LOAD_FAILED = 'Failed to load the payment requests';

const dash = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

/** A customer's card: which of their devices each request was for, linked to its page. */
const deviceColumn: Column<PaymentRequest> = {
  key: 'device',
  header: 'Device',
  render: (r) => (
    <Text component={Link} to={paths.app.deviceActivity.getHref(r.serial_number)} size="sm" fw={600} ff="monospace" c="var(--mantine-primary-color-filled)">
      {r.serial_number}
    </Text>
  ),
};

const columns: Column<PaymentRequest>[] = [
  { key: 'sent', header: 'Sent', render: (r) => <DateText value={r.created_at} withTime /> },
  {
    // The phone prompted, and by whom: M-Pesa Express, MTN MoMo or Airtel Money.
    key: 'phone',
    header: 'Phone',
    render: (r) => (
      <Stack gap={0}>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatRequestPhone(r.phone_number)}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {PAYMENT_REQUEST_PROVIDER_LABELS[r.provider]}
        </Text>
      </Stack>
    ),
  },
  { key: 'amount', header: 'Amount', align: 'right', render: (r) => <Money amount={r.amount} currency={r.currency} size="sm" /> },
  {
    key: 'status',
    header: 'Status',
    render: (r) => (
      <Stack gap={2} align="flex-start" maw={300}>
        <PaymentRequestStatusBadge status={r.status} />
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {r.status_text}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'receipt',
    header: 'Receipt',
    render: (r) =>
      r.receipt ? (
        <Stack gap={0}>
          <Text size="sm" ff="monospace">
            {r.receipt}
          </Text>
          {r.days !== null ? (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {r.days === 1 ? '1 day' : `${r.days} days`}
              {r.token ? (
                <>
                  {' · '}
                  <TokenText token={r.token} size="xs" />
                </>
              ) : null}
            </Text>
          ) : null}
        </Stack>
      ) : (
        dash
      ),
  },
  {
    key: 'by',
    header: 'Sent by',
    // Pay Now on the customer's own page is sent by no user; a user since removed leaves no name either.
    render: (r) =>
      r.from_customer_page ? (
        <Text size="sm" c="dimmed">
          The customer (their page or USSD)
        </Text>
      ) : r.requested_by ? (
        <Text size="sm">{r.requested_by}</Text>
      ) : (
        dash
      ),
  },
  {
    key: 'actions',
    header: 'Actions',
    render: (r) => (isCheckable(r) ? <CheckWithMpesaButton request={r} size="xs" aria-label={`${checkLabel(r.provider)}: request of ${r.created_at}`} /> : null),
  },
];

/** "3 requests · 1 waiting"; what the card is for while there are none. */
function summary(total: number, rows: readonly PaymentRequest[] | undefined): string {
  if (total === 0) return 'What customers were asked to pay by mobile money from Kidogo, and what they did';
  const requests = total === 1 ? '1 request' : `${total.toLocaleString()} requests`;
  const waiting = rows?.filter((r) => r.status === 'pending').length ?? 0;
  return waiting ? `${requests} · ${waiting} waiting` : requests;
}

/**
 * Once a request this table saw waiting shows up paid (the modal was closed
 * before the customer paid), the payment is on the device: the page reads
 * again, as after any payment.
 */
function useRefreshWhenPaid(rows: readonly PaymentRequest[] | undefined) {
  const qc = useQueryClient();
  const waiting = useRef(new Set<number>());
  useEffect(() => {
    if (!rows) return;
    const paid = rows.some((r) => r.status === 'paid' && waiting.current.has(r.request_id));
    waiting.current = new Set(rows.filter((r) => r.status === 'pending').map((r) => r.request_id));
    if (paid) void refreshAfterWrite(qc);
  }, [qc, rows]);
}

/** One device's requests: its page. */
interface DeviceScope {
  serialNumber: string;
}

/** One customer's requests, for any of their devices: their page. */
interface CustomerScope {
  customerId: number;
  customerName: string;
}

export type PaymentRequestsCardProps = DeviceScope | CustomerScope;

/**
 * Payment Requests of one device (on its page) or of one customer (on theirs, with the device of each): every
 * M-Pesa Express, MTN MoMo or Airtel Money request sent, newest first, 10 a page.
 */
export function PaymentRequestsCard(props: PaymentRequestsCardProps) {
  const [page, setPage] = useState(1);
  const device = 'serialNumber' in props;
  const scope = device ? { serial_number: props.serialNumber } : { customer_id: props.customerId };
  const requests = usePaymentRequests({ page, limit: PAYMENT_REQUESTS_PAGE_SIZE, ...scope });
  const rows = requests.data?.data;
  const total = requests.data?.total ?? 0;
  useRefreshWhenPaid(rows);
  return (
    <Card padding="lg" radius="md" mt="lg" role="region" aria-label="Payment Requests">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconDeviceMobileDollar size={22} />
        </ThemeIcon>
        <div>
          <Title order={4}>Payment Requests</Title>
          <Text size="sm" c="dimmed">
            {summary(total, rows)}
          </Text>
        </div>
      </Group>
      <DataTable
        caption={`Payment Requests of ${device ? props.serialNumber : props.customerName}`}
        columns={device ? columns : [columns[0]!, deviceColumn, ...columns.slice(1)]}
        rows={rows}
        rowKey={(r) => r.request_id}
        loading={requests.isPending}
        error={requests.isError ? errorMessage(requests.error, REQUESTS_LOAD_FAILED) : null}
        onRetry={() => void requests.refetch()}
        emptyText="No payment requests yet"
        emptyHint={
          device
            ? "Ask to Pay sends one: the customer's phone asks them to pay the amount with their PIN."
            : "Ask to Pay, on a device's page or in Collections, sends one: the customer's phone asks them to pay the amount with their PIN."
        }
        minWidth={device ? 980 : 1100}
      />
      <PaginationControl page={page} total={total} pageSize={PAYMENT_REQUESTS_PAGE_SIZE} onPageChange={setPage} itemLabel="requests" />
    </Card>
  );
}
