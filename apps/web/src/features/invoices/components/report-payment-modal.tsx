import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSubmitPayment } from '../api/submit-payment';
import type { Invoice } from '../api/types';
import { currencyOf, formatAmount, shortId } from './format';

/** An organization tells the platform it paid: the reference goes to the super admin, who marks it paid. */
export function ReportPaymentModal({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const submit = useSubmitPayment();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    if (submit.isPending) return;
    submit.reset();
    setReference('');
    setError(null);
    onClose();
  };
  return (
    <Modal opened={invoice !== null} onClose={close} title="Report Payment" centered>
      {invoice ? (
        <Stack gap="md">
          <Text size="sm">
            Invoice <b>{invoice.invoice_number || shortId(invoice.invoice_id)}</b> · {currencyOf(invoice)} {formatAmount(invoice.amount)}
          </Text>
          <TextInput
            label="Payment reference"
            description="The bank, mobile-money or transaction reference of your payment"
            withAsterisk
            value={reference}
            onChange={(e) => {
              setReference(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          {submit.isError ? <ErrorAlert message={errorMessage(submit.error, 'Failed to report the payment')} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={submit.isPending}>
              Cancel
            </Button>
            <Button
              loading={submit.isPending}
              onClick={() => {
                if (!reference.trim()) {
                  setError('Payment reference is required');
                  return;
                }
                submit.mutate(
                  { payment_id: invoice.invoice_id, tx_hash: reference.trim() },
                  {
                    onSuccess: () => {
                      toast.success('Payment reported; it will be confirmed shortly');
                      setReference('');
                      submit.reset();
                      onClose();
                    },
                  },
                );
              }}
            >
              Report Payment
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
