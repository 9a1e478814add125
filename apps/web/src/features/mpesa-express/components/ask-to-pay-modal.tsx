import { ActionIcon, Button, Center, Group, Loader, Modal, NumberInput, Stack, Text, TextInput, Tooltip, type ButtonProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceMobileDollar } from '@tabler/icons-react';
import { MPESA_EXPRESS_MAX_AMOUNT, mpesaPhone, ZPaymentRequestInputSchema, type PaymentRequestInput } from '@kidogo/contracts';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { useCustomer } from '@/features/customers/api/get-customer';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useSendPaymentRequest } from '../api/send-payment-request';
import { PaymentRequestProgress } from './payment-request-progress';

/** M-Pesa Express takes shillings only. */
export const MPESA_CURRENCY = 'KES';

export const SEND_FAILED = 'Payment request not sent';

/** The device whose customer is asked to pay, and what the page knows that helps choose the amount. */
export interface AskToPayTarget {
  serialNumber: string;
  customerId: number;
  customerName: string;
  /** The customer's phone; left out when the page does not know it (the modal reads the customer then). */
  phone?: string | null;
  /** The plan's price of a day, and what is left to pay, in `currency`: hints for the amount. */
  dailyPrice?: string | null;
  remaining?: string | null;
  currency?: string | null;
}

/** The form's labels: client-side and server messages read "Amount must be at least 1". */
const LABELS = { amount: 'Amount', phone_number: 'Phone Number' };

interface Values {
  phone_number: string;
  amount: number | string;
}

/** The request body: the phone as M-Pesa takes it (2547…), left out when empty so the API takes the customer's. */
export function toPaymentRequestInput(serialNumber: string, v: Values): PaymentRequestInput {
  const phone = v.phone_number.trim();
  return {
    serial_number: serialNumber,
    amount: typeof v.amount === 'number' ? v.amount : Number(v.amount),
    ...(phone ? { phone_number: mpesaPhone(phone) ?? phone } : {}),
  };
}

function validate(serialNumber: string, v: Values) {
  const blankAmount = String(v.amount).trim() === '';
  const errors = schemaErrors(ZPaymentRequestInputSchema, { ...toPaymentRequestInput(serialNumber, v), amount: blankAmount ? undefined : v.amount }, LABELS);
  if (blankAmount) errors.amount = 'Amount is required';
  return errors;
}

/** "KES 50.00 a day · KES 10,500.00 left to pay", from what the page knows; null when it knows neither. */
function amountHint(t: AskToPayTarget): string | null {
  const currency = t.currency ?? MPESA_CURRENCY;
  const parts = [
    t.dailyPrice ? `${formatMoney(t.dailyPrice, currency)} a day` : null,
    t.remaining !== null && t.remaining !== undefined ? `${formatMoney(t.remaining, currency)} left to pay` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

function AskToPayForm({
  target,
  initial,
  send,
  onSent,
  onCancel,
}: {
  target: AskToPayTarget;
  initial: Values;
  send: ReturnType<typeof useSendPaymentRequest>;
  onSent: (requestId: number, values: Values) => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initial,
    validate: (v) => validate(target.serialNumber, v),
    onValuesChange: () => setFailure(null),
  });
  const hint = amountHint(target);

  const submit = form.onSubmit((values) => {
    if (send.isPending) return;
    setFailure(null);
    send.mutate(toPaymentRequestInput(target.serialNumber, values), {
      onSuccess: (reply) => onSent(reply.data.request_id, values),
      onError: (error) => {
        // A 400's fields go under their inputs; everything else (no customer, not set up, one still waiting,
        // M-Pesa's refusal) in the red box, in the API's words.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, LABELS);
        form.setErrors(shown);
        const unshown = Object.keys(fields).some((f) => !(f in shown));
        setFailure(Object.keys(shown).length && !unshown ? null : errorMessage(error, SEND_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Ask to Pay">
      <Stack gap="md">
        <Text size="sm">
          M-Pesa asks <b>{target.customerName}</b> to pay to your paybill, account{' '}
          <Text span ff="monospace" fw={600}>
            {target.serialNumber}
          </Text>
          . Their phone shows the prompt; they confirm with their PIN.
        </Text>
        <TextInput
          label={LABELS.phone_number}
          description={initial.phone_number ? "The customer's phone: M-Pesa prompts this number" : "Leave empty to use the customer's phone on file"}
          placeholder="07XX XXX XXX"
          inputMode="tel"
          autoComplete="off"
          {...form.getInputProps('phone_number')}
        />
        <NumberInput
          label={`${LABELS.amount} (${MPESA_CURRENCY})`}
          withAsterisk
          description={hint ? `${hint}. Whole shillings.` : 'Whole shillings.'}
          min={1}
          max={MPESA_EXPRESS_MAX_AMOUNT}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          data-autofocus
          {...form.getInputProps('amount')}
        />
        {failure ? <ErrorAlert title={SEND_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending} leftSection={<IconDeviceMobileDollar size={16} />}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The customer's phone: the page's, else read from the customer (a device's page does not carry it). */
function WithPhone({ target, children }: { target: AskToPayTarget; children: (phone: string) => ReactNode }) {
  const known = target.phone !== undefined;
  const customer = useCustomer(known ? null : target.customerId);
  if (!known && customer.isPending) {
    return (
      <Center py="lg" role="status" aria-label="Loading the customer's phone">
        <Loader size="sm" />
      </Center>
    );
  }
  // Not read: the field stays empty and the API prompts the phone on file.
  return children((known ? target.phone : customer.data?.phone_contact) ?? '');
}

/**
 * Ask to Pay: M-Pesa Express prompts the customer's phone for the amount, to
 * the organization's paybill or till with the device's serial number as the
 * account; the modal then follows the request until the customer pays,
 * cancels, or the prompt expires.
 */
export function AskToPayModal({ target, onClose }: { target: AskToPayTarget | null; onClose: () => void }) {
  const send = useSendPaymentRequest();
  const [sent, setSent] = useState<{ id: number; values: Values } | null>(null);
  // Ask Again opens the form with what was sent last time.
  const [again, setAgain] = useState<Values | null>(null);
  const close = () => {
    if (send.isPending) return;
    send.reset();
    setSent(null);
    setAgain(null);
    onClose();
  };
  return (
    <Modal opened={target !== null} onClose={close} title="Ask to Pay" size="md" centered closeOnClickOutside={!send.isPending && sent === null}>
      {target === null ? null : sent ? (
        <PaymentRequestProgress
          requestId={sent.id}
          onAskAgain={() => {
            send.reset();
            setAgain(sent.values);
            setSent(null);
          }}
          onClose={close}
        />
      ) : (
        <WithPhone target={target}>
          {(phone) => (
            <AskToPayForm
              key={`${target.serialNumber}-${again ? 'again' : 'new'}`}
              target={target}
              initial={again ?? { phone_number: phone, amount: '' }}
              send={send}
              onSent={(id, values) => setSent({ id, values })}
              onCancel={close}
            />
          )}
        </WithPhone>
      )}
    </Modal>
  );
}

/** The device page's "Ask to Pay" button and its modal. */
export function AskToPayButton({ target, ...buttonProps }: { target: AskToPayTarget } & ButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconDeviceMobileDollar size={16} />} onClick={() => setOpened(true)} {...buttonProps}>
        Ask to Pay
      </Button>
      <AskToPayModal target={opened ? target : null} onClose={() => setOpened(false)} />
    </>
  );
}

/** A row's Ask to Pay button, named for its customer and device so a screen reader (and a test) tells the rows apart. */
export function AskToPayAction({ target, onAsk }: { target: AskToPayTarget; onAsk: (target: AskToPayTarget) => void }) {
  return (
    <Tooltip label="Ask to Pay" withArrow>
      <ActionIcon variant="light" color="green" aria-label={`Ask to Pay: ${target.customerName} · ${target.serialNumber}`} onClick={() => onAsk(target)}>
        <IconDeviceMobileDollar size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
