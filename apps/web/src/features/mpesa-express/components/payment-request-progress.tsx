import { Alert, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { MPESA_EXPRESS_EXPIRES_AFTER_S, PAYMENT_REQUEST_STATUS_LABELS, type PaymentRequest, type PaymentRequestProvider } from '@kidogo/contracts';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { TokenText } from '@/components/ui/token-text';
import { NO_TOKEN } from '@/features/record-payment/components/payment-result';
import { errorMessage } from '@/lib/api-client';
import { isCheckable } from '../api/check-payment-request';
import { usePaymentRequest } from '../api/get-payment-request';
import { CheckWithMpesaButton } from './check-with-mpesa-button';
import { PROVIDER_NAMES, RECEIPT_LABELS } from './payment-request-provider';
import { formatRequestPhone } from './payment-request-status-badge';

export const WAITING_TEXT = 'Waiting for the customer to enter their M-Pesa PIN…';
export const MTN_MOMO_WAITING_TEXT = 'Waiting for the customer to approve with their MTN MoMo PIN…';
export const AIRTEL_MONEY_WAITING_TEXT = 'Waiting for the customer to approve with their Airtel Money PIN…';
const WAITING_TEXTS: Record<PaymentRequestProvider, string> = {
  mpesa_express: WAITING_TEXT,
  mtn_momo: MTN_MOMO_WAITING_TEXT,
  airtel_money: AIRTEL_MONEY_WAITING_TEXT,
};

/** What the payment pipeline made of a paid request, when it is not the ordinary "applied to the device". */
const OUTCOME_NOTES: Record<string, string> = {
  duplicate: 'This payment had already arrived another way: it is recorded once.',
  unmatched: 'The payment is held for staff to match to a device (Messages, Held Payments).',
};

/** "KES 150.00 from +254 712 345 678, account SHS-0001". */
const whatWasAsked = (r: PaymentRequest) => `${formatMoney(r.amount, r.currency)} from ${formatRequestPhone(r.phone_number)}, account ${r.serial_number}`;

function Waiting({ request }: { request: PaymentRequest }) {
  return (
    <Stack gap="sm" align="center" py="md" role="status" aria-live="polite">
      <Loader size="md" />
      <Text fw={600} ta="center">
        {WAITING_TEXTS[request.provider]}
      </Text>
      <Text size="sm" c="dimmed" ta="center">
        {whatWasAsked(request)}
      </Text>
      <Text size="xs" c="dimmed" ta="center" maw={380}>
        {/* MTN and Airtel say nothing of how long their request stays on the phone. */}
        {request.provider === 'mpesa_express' ? `The prompt stays on their phone for about ${Math.round(MPESA_EXPRESS_EXPIRES_AFTER_S / 60)} minutes. ` : null}
        You may close this window: the result shows under Payment Requests on the device&apos;s page.
      </Text>
    </Stack>
  );
}

function Paid({ request }: { request: PaymentRequest }) {
  const reason = request.payment_reason as keyof typeof NO_TOKEN | null;
  // The provider said "paid" to a check: no receipt (and no payment) yet; the status says what brings them.
  const noReceipt = request.answered_by === 'check' && request.receipt === null;
  const note =
    (noReceipt ? request.status_text : undefined) ??
    (request.payment_outcome ? OUTCOME_NOTES[request.payment_outcome] : undefined) ??
    (!request.token && reason ? NO_TOKEN[reason] : undefined) ??
    (request.payment_outcome === null ? 'The payment is being recorded.' : undefined);
  return (
    <Stack gap="md">
      <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title={PAYMENT_REQUEST_STATUS_LABELS.paid} role="status">
        {request.customer_name ? `${request.customer_name} paid ` : 'Paid '}
        {whatWasAsked(request)}.
      </Alert>
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="md">
        <LabelledFigure label={RECEIPT_LABELS[request.provider]}>
          <Text span ff="monospace" fw={600}>
            {request.receipt ?? '—'}
          </Text>
        </LabelledFigure>
        <LabelledFigure label="Days Bought">{request.days ?? '—'}</LabelledFigure>
      </SimpleGrid>
      {request.token ? (
        <Paper withBorder p="md" radius="md" ta="center" bg="var(--mantine-color-default-hover)" role="group" aria-label="Token">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
            Token
          </Text>
          <Group justify="center">
            <TokenText token={request.token} copyable fz={{ base: 22, xs: 28 }} fw={700} data-testid="payment-request-token" />
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            Sent to the customer by SMS, as for every payment.
          </Text>
        </Paper>
      ) : null}
      {note ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {note}
        </Alert>
      ) : null}
    </Stack>
  );
}

function NotPaid({ request }: { request: PaymentRequest }) {
  const failed = request.status === 'failed';
  return (
    <Alert
      color={failed ? 'red' : 'gray'}
      variant="light"
      icon={failed ? <IconCircleX size={18} /> : <IconInfoCircle size={18} />}
      title={PAYMENT_REQUEST_STATUS_LABELS[request.status]}
      role={failed ? 'alert' : 'status'}
    >
      <Stack gap={4}>
        <Text size="sm">{request.status_text}</Text>
        <Text size="xs" c="dimmed">
          {whatWasAsked(request)}.{' '}
          {request.status === 'expired' ? `If the customer says they paid, check with ${PROVIDER_NAMES[request.provider]}.` : 'Nothing was paid.'}
        </Text>
      </Stack>
    </Alert>
  );
}

/**
 * A sent request, followed live (GET /payment-requests/{id} every 3 s while
 * it waits) until the customer pays, cancels, or it fails or expires.
 */
export function PaymentRequestProgress({ requestId, onAskAgain, onClose }: { requestId: number; onAskAgain: () => void; onClose: () => void }) {
  const query = usePaymentRequest(requestId);
  const request = query.data?.data;

  if (!request) {
    return query.isError ? (
      <ErrorAlert
        title="Failed to read the payment request"
        message={errorMessage(query.error, 'Failed to read the payment request')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    ) : (
      <Center py="lg" role="status" aria-label="Loading">
        <Loader size="sm" />
      </Center>
    );
  }

  const pending = request.status === 'pending';
  return (
    <Stack gap="md">
      {request.status === 'pending' ? <Waiting request={request} /> : request.status === 'paid' ? <Paid request={request} /> : <NotPaid request={request} />}
      {pending && query.isError ? (
        <Text size="xs" c="red" ta="center">
          Could not check on the request just now ({errorMessage(query.error)}); trying again.
        </Text>
      ) : null}
      <Group justify="flex-end" align="flex-start" gap="sm">
        {isCheckable(request) ? <CheckWithMpesaButton request={request} inline /> : null}
        {!pending && request.status !== 'paid' ? (
          <Button variant="default" onClick={onAskAgain}>
            Ask Again
          </Button>
        ) : null}
        <Button variant={pending ? 'default' : 'filled'} onClick={onClose}>
          {pending ? 'Close' : 'Done'}
        </Button>
      </Group>
    </Stack>
  );
}
