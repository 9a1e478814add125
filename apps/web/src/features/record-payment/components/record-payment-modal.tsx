import { Button, Center, Group, Loader, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { IconCashRegister } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useCustomerDevices } from '../api/get-customer-devices';
import { useRecordPayment } from '../api/record-payment';
import type { CustomerDevice, ManualPaymentInput, PaymentOutcome } from '../api/types';
import { PaymentResult } from './payment-result';
import { RecordPaymentForm } from './record-payment-form';

/** The device a payment is for: fixed (Device Activity), or one of a customer's (Customer Payment Details). */
export type PaymentTarget = { serialNumber: string } | { customerId: number; defaultSerial: string | null };

/** The page's device when the customer still has it and it takes payments, else the first one that does. */
function initialSerial(devices: CustomerDevice[], preferred: string | null): string {
  const open = devices.filter((d) => d.status !== 'retired');
  return (open.find((d) => d.serial_number === preferred) ?? open[0])?.serial_number ?? '';
}

function CustomerDevicesForm({
  customerId,
  defaultSerial,
  ...rest
}: { customerId: number; defaultSerial: string | null } & Omit<Parameters<typeof RecordPaymentForm>[0], 'device' | 'initialSerial'>) {
  const devices = useCustomerDevices(customerId);
  if (devices.isPending) {
    return (
      <Center py="lg" role="status" aria-label="Loading devices">
        <Loader size="sm" />
      </Center>
    );
  }
  if (devices.isError) {
    return (
      <ErrorAlert
        title="Failed to load the customer's devices"
        message={errorMessage(devices.error, "Failed to load the customer's devices")}
        onRetry={() => void devices.refetch()}
        retrying={devices.isFetching}
      />
    );
  }
  if (devices.data.length === 0) {
    return (
      <Stack gap="md">
        <Text size="sm">This customer has no device yet: assign one (Onboarding) before recording a payment.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={rest.onCancel}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <RecordPaymentForm
      device={{ kind: 'choose', devices: devices.data }}
      initialSerial={initialSerial(devices.data, defaultSerial)}
      {...rest}
    />
  );
}

/**
 * Record Payment: money collected by staff (cash, bank, mobile money) goes
 * through the same pipeline as an M-Pesa confirmation, then the modal shows
 * what it bought: tokens, days, credit and the balance left.
 */
export function RecordPaymentModal({
  opened,
  onClose,
  target,
  currency,
}: {
  opened: boolean;
  onClose: () => void;
  target: PaymentTarget;
  /** The device plan's currency, for amounts; null when the page does not know it. */
  currency: string | null;
}) {
  const record = useRecordPayment();
  const [result, setResult] = useState<{ outcome: PaymentOutcome; input: ManualPaymentInput } | null>(null);
  // A new form (empty, no errors) each time the modal opens or "Record another" is asked for.
  const [round, setRound] = useState(0);

  const close = () => {
    if (record.isPending) return;
    record.reset();
    setResult(null);
    setRound((r) => r + 1);
    onClose();
  };
  const another = () => {
    record.reset();
    setResult(null);
    setRound((r) => r + 1);
  };
  const formProps = {
    currency,
    record,
    onRecorded: (outcome: PaymentOutcome, input: ManualPaymentInput) => setResult({ outcome, input }),
    onCancel: close,
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={result ? (result.outcome.status === 'duplicate' ? 'Payment Already Recorded' : 'Payment Recorded') : 'Record Payment'}
      size="lg"
      centered
      closeOnClickOutside={!record.isPending && result === null}
    >
      {result ? (
        <Stack gap="md">
          <PaymentResult outcome={result.outcome} input={result.input} currency={currency} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={another}>
              Record another
            </Button>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : 'serialNumber' in target ? (
        <RecordPaymentForm key={round} device={{ kind: 'fixed', serialNumber: target.serialNumber }} initialSerial={target.serialNumber} {...formProps} />
      ) : (
        <CustomerDevicesForm key={round} customerId={target.customerId} defaultSerial={target.defaultSerial} {...formProps} />
      )}
    </Modal>
  );
}

/** The page's "Record Payment" button and its modal. */
export function RecordPaymentButton({ target, currency, ...buttonProps }: { target: PaymentTarget; currency: string | null } & ButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button leftSection={<IconCashRegister size={16} />} onClick={() => setOpened(true)} {...buttonProps}>
        Record Payment
      </Button>
      <RecordPaymentModal opened={opened} onClose={() => setOpened(false)} target={target} currency={currency} />
    </>
  );
}
