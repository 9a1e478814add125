import { Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { toast } from '@/lib/notify';
import { useReversePayment } from '../api/reverse-payment';
import type { PaymentHistoryEntry } from '../api/types';

/**
 * Reverse a payment applied to this device by mistake (a mistyped account
 * number, a cash entry on the wrong serial). The device gets back what it had
 * before the payment, and the payment waits in Held Payments (Messages) to be
 * matched to the right device or rejected.
 */
export function ReversePaymentModal({
  serialNumber,
  payment,
  onClose,
}: {
  /** The device the payment is on; the payment's own device_serial when not given. */
  serialNumber?: string;
  payment: PaymentHistoryEntry | null;
  onClose: () => void;
}) {
  const reverse = useReversePayment();
  const close = () => {
    if (reverse.isPending) return;
    reverse.reset();
    onClose();
  };
  return (
    <Modal opened={payment !== null} onClose={close} title="Reverse Payment" size="md" centered>
      {payment ? (
        <ReverseForm key={payment.payment_id} serialNumber={serialNumber ?? payment.device_serial ?? 'the device'} payment={payment} reverse={reverse} onCancel={close} onDone={onClose} />
      ) : null}
    </Modal>
  );
}

function ReverseForm({
  serialNumber,
  payment,
  reverse,
  onCancel,
  onDone,
}: {
  serialNumber: string;
  payment: PaymentHistoryEntry;
  reverse: ReturnType<typeof useReversePayment>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const orgCurrency = useOrganizationCurrency();
  const reason = useReason('Say why this payment is reversed');
  const what = [`#${payment.payment_id}`, formatMoney(payment.amount, payment.currency ?? orgCurrency), payment.transaction_code].filter(Boolean).join(' · ');

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    if (text === null) return;
    reverse.mutate(
      { paymentId: payment.payment_id, reason: text },
      {
        onSuccess: (reply) => {
          const days = reply.days_removed ? `, ${reply.days_removed} day${reply.days_removed === 1 ? '' : 's'} taken back` : '';
          toast.success(`Payment #${reply.payment_id} reversed from ${reply.serial_number}${days}. It is waiting in Held Payments to be matched.`);
          reverse.reset();
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Reverse Payment">
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {what}
        </Text>
        <Text size="sm" c="dimmed">
          For a payment applied to {serialNumber} by mistake, such as a mistyped account number. Reversing it:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>gives the device back what it had before: total paid, credit, and the days its tokens added (and its activation, if this payment activated it);</List.Item>
          <List.Item>
            holds the payment in{' '}
            <Anchor component={Link} to={paths.app.messages.getHref()} size="sm">
              Held Payments
            </Anchor>
            , where you match it to the right device or reject it.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Only the latest payment on a device can be reversed. The code already sent is not withdrawn: if the device took it, lock it back with a Set
          Time token.
        </Text>
        {reverse.isError ? <ErrorAlert message={errorMessage(reverse.error, 'Failed to reverse the payment')} /> : null}
        <ReasonField placeholder="e.g. Customer typed the wrong account number" disabled={reverse.isPending} {...reason.field} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={reverse.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={reverse.isPending}>
            Reverse Payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
