import '@mantine/dates/styles.css';
import { Button, Group, Input, NumberInput, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors } from '@/lib/api-client';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useSession } from '@/lib/session';
import { useCashCollectors } from '../api/get-cash-collectors';
import type { useRecordPayment } from '../api/record-payment';
import { PAYMENT_METHODS, ZManualPaymentSchema, type CustomerDevice, type ManualPaymentInput, type PaymentMethod, type PaymentOutcome } from '../api/types';

export const RECORD_FAILED = 'Failed to record payment';

export const METHOD_LABELS: Record<PaymentMethod, string> = { cash: 'Cash', bank: 'Bank', mobile_money: 'Mobile money' };

/** The form's labels: client-side and server messages read "Amount must be at least 0.01". */
export const LABELS = {
  serial_number: 'Device',
  amount: 'Amount',
  payment_method: 'Payment Method',
  reference: 'Reference',
  paid_at: 'Date Paid',
  collected_by: 'Collected By',
};
type Field = keyof typeof LABELS;

/** Collected By's choice of whoever records the payment (a Select's value cannot be empty). */
const ME = '(me)';

export interface PaymentFormValues {
  serial_number: string;
  amount: number | string;
  payment_method: PaymentMethod;
  reference: string;
  /** 'YYYY-MM-DD HH:mm:ss' in local time, as the picker gives it; null means now. */
  paid_at: string | null;
  /** Cash: the user who took it and holds it until they hand it over; ME for whoever records it. */
  collected_by: string;
}

/** The request body: text trimmed, an empty reference or date left out (the server then takes now). */
export function toPaymentInput(v: PaymentFormValues): ManualPaymentInput {
  const reference = v.reference.trim();
  return {
    serial_number: v.serial_number.trim(),
    amount: typeof v.amount === 'number' ? v.amount : Number(v.amount),
    payment_method: v.payment_method,
    ...(reference ? { reference } : {}),
    ...(v.paid_at ? { paid_at: dayjs(v.paid_at).toISOString() } : {}),
    ...(v.payment_method === 'cash' && v.collected_by !== ME ? { collected_by: v.collected_by } : {}),
  };
}

/** The contract's own rules (ZManualPaymentSchema), so the form refuses what the API would, in its words. */
export function validatePayment(v: PaymentFormValues): Partial<Record<Field, string>> {
  const blankAmount = String(v.amount).trim() === '';
  const errors = schemaErrors(ZManualPaymentSchema, { ...toPaymentInput(v), amount: blankAmount ? undefined : v.amount }, LABELS);
  if (blankAmount) errors.amount = 'Amount is required';
  return errors;
}

/** Which device the payment is for: fixed by the page, or chosen among the customer's devices. */
export type DeviceField = { kind: 'fixed'; serialNumber: string } | { kind: 'choose'; devices: CustomerDevice[] };

export function RecordPaymentForm({
  device,
  initialSerial,
  currency,
  record,
  onRecorded,
  onCancel,
}: {
  device: DeviceField;
  initialSerial: string;
  currency: string | null;
  record: ReturnType<typeof useRecordPayment>;
  onRecorded: (outcome: PaymentOutcome, input: ManualPaymentInput) => void;
  onCancel: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const { user } = useSession();
  const [today] = useState(() => dayjs().endOf('day').format('YYYY-MM-DD HH:mm:ss'));
  const form = useForm<PaymentFormValues>({
    mode: 'controlled',
    initialValues: { serial_number: initialSerial, amount: '', payment_method: 'cash', reference: '', paid_at: null, collected_by: ME },
    validate: validatePayment,
    onValuesChange: () => setFailure(null),
  });

  const submit = form.onSubmit((values) => {
    if (record.isPending) return;
    setFailure(null);
    const input = toPaymentInput(values);
    record.mutate(input, {
      onSuccess: (outcome) => onRecorded(outcome, input),
      onError: (error) => {
        // A 400 names its fields: each message goes under its input. What has no input on screen
        // (a fixed device) and every other refusal (404, 409) goes in the red box, as the API words it.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, LABELS);
        if (device.kind === 'fixed') delete shown.serial_number;
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, RECORD_FAILED));
      },
    });
  });

  const cash = form.values.payment_method === 'cash';
  const collectors = useCashCollectors(cash);
  const usable = device.kind === 'fixed' || device.devices.some((d) => d.status !== 'retired');

  return (
    <form onSubmit={submit} noValidate aria-label="Record Payment">
      <Stack gap="md">
        {device.kind === 'fixed' ? (
          <TextInput label={LABELS.serial_number} value={device.serialNumber} readOnly variant="filled" ff="monospace" />
        ) : (
          <Select
            label={LABELS.serial_number}
            withAsterisk
            allowDeselect={false}
            searchable={device.devices.length > 6}
            placeholder={usable ? 'Choose the device' : 'This customer has no device that takes payments'}
            nothingFoundMessage="No device found"
            comboboxProps={{ withinPortal: true }}
            data={device.devices.map((d) => ({
              value: d.serial_number,
              label: `${d.serial_number} · ${d.product_name}${d.status === 'retired' ? ' (retired)' : ''}`,
              // The API refuses payments on retired devices (409): they are listed, but not offered.
              disabled: d.status === 'retired',
            }))}
            {...form.getInputProps('serial_number')}
          />
        )}
        <NumberInput
          label={LABELS.amount}
          withAsterisk
          min={0}
          step={1}
          decimalScale={2}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          data-autofocus
          rightSection={currency ? <span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)', paddingRight: 8 }}>{currency}</span> : null}
          rightSectionWidth={currency ? 48 : undefined}
          {...form.getInputProps('amount')}
        />
        <Input.Wrapper label={LABELS.payment_method} withAsterisk error={form.errors.payment_method} labelElement="div">
          <SegmentedControl
            fullWidth
            aria-label={LABELS.payment_method}
            data={PAYMENT_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
            value={form.values.payment_method}
            onChange={(v) => form.setFieldValue('payment_method', v as PaymentMethod)}
          />
        </Input.Wrapper>
        {cash ? (
          <Select
            label={LABELS.collected_by}
            description="Who took the cash and holds it until they hand it over (Cash in Hand)."
            allowDeselect={false}
            searchable={(collectors.data?.length ?? 0) > 6}
            comboboxProps={{ withinPortal: true }}
            data={[
              { value: ME, label: `Me (${user?.username ?? 'you'})` },
              ...(collectors.data ?? []).filter((u) => u !== user?.username).map((u) => ({ value: u, label: u })),
            ]}
            {...form.getInputProps('collected_by')}
            value={form.values.collected_by}
            onChange={(v) => form.setFieldValue('collected_by', v ?? ME)}
          />
        ) : null}
        <TextInput
          label={LABELS.reference}
          description="Receipt number, bank reference or M-Pesa code. Optional; a reference is recorded only once."
          placeholder="e.g. RCPT-0042"
          autoComplete="off"
          {...form.getInputProps('reference')}
        />
        <DateTimePicker
          label={LABELS.paid_at}
          description="Leave empty when the money was received just now."
          placeholder="Now"
          valueFormat="DD MMM YYYY HH:mm"
          clearable
          maxDate={today}
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('paid_at')}
        />
        {failure ? <ErrorAlert title={RECORD_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={record.isPending} disabled={!usable}>
            Record Payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
