import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { DeviceDiscount } from '@kidogo/contracts';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { ReasonField, useReason } from '@/components/ui/reason-field';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useVoidDiscount } from '../api/void-discount';

/**
 * Void a discount given by mistake (the wrong device, the wrong amount): what
 * it took off is back on what the customer has left to pay, and the discount
 * stays listed as voided, with who and why.
 */
export function VoidDiscountModal({ discount, onClose }: { discount: DeviceDiscount | null; onClose: () => void }) {
  const voiding = useVoidDiscount();
  const close = () => {
    if (voiding.isPending) return;
    voiding.reset();
    onClose();
  };
  return (
    <Modal opened={discount !== null} onClose={close} title="Void Discount" size="md" centered closeOnClickOutside={!voiding.isPending}>
      {discount ? <VoidForm key={discount.discount_id} discount={discount} voiding={voiding} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function VoidForm({
  discount,
  voiding,
  onCancel,
  onDone,
}: {
  discount: DeviceDiscount;
  voiding: ReturnType<typeof useVoidDiscount>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const reason = useReason('Say why this discount is voided');
  const amount = formatMoney(discount.amount, discount.currency);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.take();
    if (text === null) return;
    voiding.mutate(
      { discountId: discount.discount_id, reason: text },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          voiding.reset();
          onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Void Discount">
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {amount} off for {discount.customer_name} · {discount.reason}
        </Text>
        <Text size="sm" c="dimmed">
          For a discount given by mistake, on the wrong device or for the wrong amount. Voiding it puts {amount} back on what{' '}
          {discount.customer_name} has left to pay on {discount.serial_number}; the discount stays listed as voided, with who voided it and why.
        </Text>
        {voiding.isError ? <ErrorAlert message={errorMessage(voiding.error, 'Failed to void the discount')} /> : null}
        <ReasonField placeholder="e.g. Given on the wrong device" disabled={voiding.isPending} {...reason.field} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={voiding.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={voiding.isPending}>
            Void Discount
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
