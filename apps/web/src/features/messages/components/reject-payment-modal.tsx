import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useRejectPayment } from '../api/reject-payment';
import type { MatchTarget } from '../api/types';

/**
 * Reject a held payment: it will never be applied to a device. The reason
 * is kept on the payment ('Rejected by {you}: {reason}') and in the audit log.
 */
export function RejectPaymentModal({ payment, onClose }: { payment: MatchTarget | null; onClose: () => void }) {
  const reject = useRejectPayment();
  const close = () => {
    if (reject.isPending) return;
    reject.reset();
    onClose();
  };
  return (
    <Modal opened={payment !== null} onClose={close} title="Reject Payment" size="md" centered>
      {payment ? <RejectForm key={payment.payment_id} payment={payment} reject={reject} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function RejectForm({
  payment,
  reject,
  onCancel,
  onDone,
}: {
  payment: MatchTarget;
  reject: ReturnType<typeof useRejectPayment>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const reason = useReason('Say why this payment is rejected');
  const what = [payment.amount ? formatMoney(payment.amount, payment.currency ?? undefined) : null, payment.transaction_code, payment.from ? `from ${payment.from}` : null]
    .filter(Boolean)
    .join(' · ');

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    if (text === null) return;
    reject.mutate(
      { paymentId: payment.payment_id, reason: text },
      {
        onSuccess: () => {
          toast.success(`Payment ${payment.transaction_code ?? payment.payment_id} rejected.`);
          reject.reset();
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Reject Payment">
      <Stack gap="md">
        {what ? (
          <Text size="sm" fw={500}>
            {what}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          A rejected payment is never applied to a device and leaves the held payments. Use it for money refunded to the
          sender, sent to another business, or a confirmation that was not real.
        </Text>
        {reject.isError ? <ErrorAlert message={errorMessage(reject.error, 'Failed to reject the payment')} /> : null}
        <ReasonField placeholder="e.g. Refunded to the sender on 24 Nov" disabled={reject.isPending} {...reason.field} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={reject.isPending}>
            Reject Payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
