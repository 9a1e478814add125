import { Badge, Button, List, Stack, Text } from '@mantine/core';
import { IconMessageCheck, IconMessageOff } from '@tabler/icons-react';
import type { SmsOptOutSource } from '@kidogo/contracts';
import { useState } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { formatDate } from '@/components/ui/date-text';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSetSmsOptOut } from '../api/sms-opt-out';

export interface SmsOptOutCustomer {
  customer_id: number;
  customer_name: string;
  sms_opted_out_at: string | null;
  sms_opt_out_source: SmsOptOutSource | null;
}

/** "Texted STOP on 25 Nov 2026", or "Asked staff on ...": how and when a customer opted out. */
export function optedOutSince(c: Pick<SmsOptOutCustomer, 'sms_opted_out_at' | 'sms_opt_out_source'>): string | null {
  if (!c.sms_opted_out_at) return null;
  return `${c.sms_opt_out_source === 'sms' ? 'Texted STOP' : 'Asked staff'} on ${formatDate(c.sms_opted_out_at)}`;
}

/**
 * Whether the customer takes texts nobody asked for (payment reminders, texts
 * from staff, texts to a Collections band), with the button that changes it:
 * any user records that the customer asked for no texts; only an owner or
 * admin (canAllow) lets texts through again, when the customer asks. The
 * customer does either by texting STOP or START to the business line.
 */
export function SmsOptOutControl({ customer, canAllow }: { customer: SmsOptOutCustomer; canAllow: boolean }) {
  const change = useSetSmsOptOut();
  const [asking, setAsking] = useState(false);
  const optedOut = Boolean(customer.sms_opted_out_at);
  const name = customer.customer_name;

  const close = () => {
    if (change.isPending) return;
    change.reset();
    setAsking(false);
  };
  const confirm = () =>
    change.mutate(
      { customerId: customer.customer_id, optedOut: !optedOut },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          change.reset();
          setAsking(false);
        },
      },
    );

  return (
    <Stack gap={6} align="flex-start">
      {optedOut ? (
        <Badge color="gray" variant="light" leftSection={<IconMessageOff size={12} />} miw="max-content">
          No texts · {optedOutSince(customer)}
        </Badge>
      ) : (
        <Badge color="green" variant="light" leftSection={<IconMessageCheck size={12} />} miw="max-content">
          Takes texts
        </Badge>
      )}
      {!optedOut || canAllow ? (
        <Button size="compact-xs" variant="subtle" color={optedOut ? 'kidogo' : 'gray'} onClick={() => setAsking(true)}>
          {optedOut ? 'Allow Texts' : 'Stop Texts'}
        </Button>
      ) : null}
      <ConfirmModal
        opened={asking}
        onClose={close}
        onConfirm={confirm}
        title={optedOut ? 'Allow texts again' : 'Stop texts'}
        confirmLabel={optedOut ? 'Allow Texts' : 'Stop Texts'}
        color={optedOut ? 'kidogo' : 'red'}
        loading={change.isPending}
        error={change.isError ? errorMessage(change.error, 'Could not change it') : null}
        message={
          optedOut ? (
            <Stack gap="xs">
              <Text size="sm">
                Only when {name} asks for texts again. They will get payment reminders, texts from staff and texts to their Collections band.
              </Text>
              <Text size="sm" c="dimmed">
                {optedOutSince(customer)}. They can also text START (or ANZA) to your payment line themselves.
              </Text>
            </Stack>
          ) : (
            <Stack gap="xs">
              <Text size="sm">Record that {name} asked for no texts. From now on they get:</Text>
              <List size="sm" spacing={2}>
                <List.Item>no payment reminders,</List.Item>
                <List.Item>no texts from staff, and none to their Collections band.</List.Item>
              </List>
              <Text size="sm" c="dimmed">
                The code for a payment they make and the answer to BAL still go. They can text START to take texts again.
              </Text>
            </Stack>
          )
        }
      />
    </Stack>
  );
}
