import { ActionIcon, Button, Group, Modal, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconMessage, IconMessageOff } from '@tabler/icons-react';
import { MAX_SMS_PARTS, smsParts } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSendCustomerSms } from '../api/send-sms';

/** Who the text goes to, and the device it is about (shown in that device's history too). */
export interface SmsTarget {
  customerId: number;
  customerName: string;
  phone?: string | null;
  serialNumber?: string | null;
  /** The customer asked for no texts (STOP): the API refuses them, so the button says so instead. */
  optedOut?: boolean;
}

/** Why a customer who asked for no texts cannot be texted, on a disabled Send SMS. */
export const OPTED_OUT_HINT = 'Asked for no texts (STOP): call instead';

/** Text a customer: a call nobody answered, a visit planned, a reminder of a promise. */
export function SendSmsModal({ target, onClose }: { target: SmsTarget | null; onClose: () => void }) {
  const send = useSendCustomerSms();
  const close = () => {
    if (send.isPending) return;
    send.reset();
    onClose();
  };
  return (
    <Modal opened={target !== null} onClose={close} title="Send SMS" size="md" centered>
      {target ? <SmsForm key={`${target.customerId}-${target.serialNumber ?? ''}`} target={target} send={send} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function SmsForm({
  target,
  send,
  onCancel,
  onDone,
}: {
  target: SmsTarget;
  send: ReturnType<typeof useSendCustomerSms>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const parts = smsParts(text.trim());
  const tooLong = parts.parts > MAX_SMS_PARTS;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError('Write the message');
      return;
    }
    if (tooLong) {
      setError(`Too long: at most ${MAX_SMS_PARTS} SMS`);
      return;
    }
    setError(null);
    send.mutate(
      { customerId: target.customerId, text: text.trim(), ...(target.serialNumber ? { serial_number: target.serialNumber } : {}) },
      {
        onSuccess: (reply) => {
          toast.success(`SMS to ${target.customerName} queued (${reply.recipient_number}).`);
          send.reset();
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Send SMS">
      <Stack gap="md">
        <Text size="sm" fw={500}>
          To {target.customerName}
          {target.phone ? ` · ${target.phone}` : ''}
          {target.serialNumber ? ` · about ${target.serialNumber}` : ''}
        </Text>
        {send.isError ? <ErrorAlert message={errorMessage(send.error, 'Failed to send the SMS')} /> : null}
        <Textarea
          label="Message"
          placeholder="e.g. Habari! We called about your solar lamp. Pay KES 150 to paybill 123456, account SHS-1001."
          withAsterisk
          autosize
          minRows={3}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            if (e.currentTarget.value.trim()) setError(null);
          }}
          error={error}
          disabled={send.isPending}
          description={
            <Text span size="xs" c={tooLong ? 'red' : 'dimmed'} aria-live="polite">
              {parts.length} characters · {parts.parts} SMS{parts.encoding === 'UCS-2' ? ' (special characters: 70 a message)' : ''}
            </Text>
          }
          data-autofocus
        />
        <Text size="xs" c="dimmed">
          Sent through your SMS provider and listed in Message History with your name.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending} leftSection={<IconMessage size={16} />}>
            Send SMS
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A row's Send SMS button, named for its customer and device so a screen reader (and a test) tells the rows apart. */
export function SendSmsButton({ target, onSend }: { target: SmsTarget; onSend: (target: SmsTarget) => void }) {
  const name = `Send SMS to ${target.customerName}${target.serialNumber ? ` · ${target.serialNumber}` : ''}`;
  if (target.optedOut) {
    // data-disabled rather than disabled, so that the tooltip still explains why.
    return (
      <Tooltip label={OPTED_OUT_HINT} withArrow>
        <ActionIcon variant="light" color="gray" aria-label={`${name} (${OPTED_OUT_HINT})`} data-disabled aria-disabled onClick={(e) => e.preventDefault()}>
          <IconMessageOff size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Tooltip label="Send SMS" withArrow>
      <ActionIcon variant="light" aria-label={name} onClick={() => onSend(target)}>
        <IconMessage size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
