import { Button, Stack, Text, type ButtonProps } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { PaymentRequest } from '@kidogo/contracts';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useCheckPaymentRequest } from '../api/check-payment-request';
import { checkFailed, checkLabel } from './payment-request-provider';

/**
 * Asks the request's provider (M-Pesa, MTN MoMo, Airtel Money) what became of a request whose result has not come (a
 * lost result, a customer who never answered): "Check with M-Pesa", "Check with MTN MoMo", "Check with Airtel Money".
 * `inline` shows the answer under the button
 * (in the Ask to Pay window) when the request does not already say it (still waiting, no payment found yet); otherwise
 * it is a toast (a table row).
 */
export function CheckWithMpesaButton({ request, inline = false, ...props }: { request: PaymentRequest; inline?: boolean } & ButtonProps) {
  const check = useCheckPaymentRequest();
  const failed = checkFailed(request.provider);
  const run = () =>
    check.mutate(request.request_id, {
      onSuccess: (reply) => {
        if (!inline && reply.message) toast.info(reply.message, { title: `Payment request for ${request.serial_number}` });
      },
      onError: (e) => {
        if (!inline) toast.error(errorMessage(e, failed), { title: failed });
      },
    });
  const button = (
    <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={run} loading={check.isPending} {...props}>
      {checkLabel(request.provider)}
    </Button>
  );
  if (!inline) return button;
  return (
    <Stack gap={4} align="flex-end">
      {button}
      {check.isError ? (
        <Text size="xs" c="red" ta="right" role="alert">
          {errorMessage(check.error, failed)}
        </Text>
      ) : check.data?.message && check.data.message !== request.status_text ? (
        <Text size="xs" c="dimmed" ta="right" role="status" maw={360}>
          {check.data.message}
        </Text>
      ) : null}
    </Stack>
  );
}
