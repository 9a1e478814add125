import '@mantine/dates/styles.css';
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { apiFieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useRecordCashHandover } from '../api/record-cash-handover';
import { ZCashHandoverInputSchema, type CashCollector, type CashHandoverInput } from '../api/types';

export const HANDOVER_FAILED = 'Failed to record the handover';

/** The form's fields by the API's names for them (a 400 names the field so), with their labels. */
export const HANDOVER_LABELS = {
  collector: 'Collector',
  currency: 'Currency',
  amount: 'Amount',
  handed_at: 'Handed At',
  reference: 'Reference',
  note: 'Note',
};
type Field = keyof typeof HANDOVER_LABELS;
type FieldErrors = Partial<Record<Field, string>>;

export interface HandoverFormValues {
  amount: number | string;
  /** 'YYYY-MM-DD HH:mm:ss' in the browser's time, as the picker gives it. */
  handed_at: string | null;
  reference: string;
  note: string;
}

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Whole cents, so 0.1 + 0.2 never decides whether an amount fits in what is held. */
const cents = (amount: number | string) => Math.round(Number(amount) * 100);

const isBlank = (amount: number | string) => String(amount).trim() === '';

/** The request body: the row's collector and currency, the amount with two decimals, the time with the browser's offset, empty text left out. */
export function toHandoverInput(v: HandoverFormValues, collector: Pick<CashCollector, 'username' | 'currency'>): CashHandoverInput {
  const reference = v.reference.trim();
  const note = v.note.trim();
  const amount = Number(v.amount);
  return {
    collector: collector.username,
    amount: Number.isFinite(amount) && !isBlank(v.amount) ? amount.toFixed(2) : v.amount,
    currency: collector.currency,
    ...(v.handed_at ? { handed_at: dayjs(v.handed_at).format() } : {}),
    ...(reference ? { reference } : {}),
    ...(note ? { note } : {}),
  };
}

/**
 * What the API would refuse, before asking it: the contract's own rules, and
 * an amount that must be more than 0 and not more than the collector holds,
 * at a time that has come.
 */
export function validateHandover(v: HandoverFormValues, collector: CashCollector): FieldErrors {
  const errors: FieldErrors = schemaErrors(ZCashHandoverInputSchema, toHandoverInput(v, collector), HANDOVER_LABELS);
  const held = formatMoney(collector.in_hand, collector.currency);
  if (isBlank(v.amount)) errors.amount = 'Amount is required';
  else if (!Number.isFinite(Number(v.amount))) errors.amount = 'Amount must be a number';
  else if (cents(v.amount) <= 0) errors.amount = 'Amount must be more than 0';
  else if (cents(v.amount) > cents(collector.in_hand)) errors.amount = `Amount must be at most ${held}: that is what ${collector.username} holds`;
  if (!v.handed_at) errors.handed_at = 'Handed At is required';
  else if (dayjs(v.handed_at).isAfter(dayjs())) errors.handed_at = 'Handed At must not be in the future';
  return errors;
}

function HandoverForm({
  collector,
  record,
  onCancel,
  onDone,
}: {
  collector: CashCollector;
  record: ReturnType<typeof useRecordCashHandover>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  // The picker offers no day after today; a time later today is refused by the check.
  const [today] = useState(() => dayjs().endOf('day').format(PICKER_FORMAT));
  const form = useForm<HandoverFormValues>({
    mode: 'controlled',
    initialValues: { amount: Number(collector.in_hand), handed_at: dayjs().format(PICKER_FORMAT), reference: '', note: '' },
    validate: (v) => validateHandover(v, collector),
    onValuesChange: () => setFailure(null),
  });

  const submit = form.onSubmit((values) => {
    if (record.isPending) return;
    setFailure(null);
    record.mutate(toHandoverInput(values, collector), {
      onSuccess: (reply) => {
        toast.success(reply.message);
        onDone();
      },
      onError: (error) => {
        // A 400 names its fields: each message goes under its input; anything else (a 403, a field
        // the form does not have) in the red box, as the API words it.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, HANDOVER_LABELS);
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, HANDOVER_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Record Handover">
      <Stack gap="md">
        <SimpleGrid cols={2} spacing="md">
          <TextInput label={HANDOVER_LABELS.collector} value={collector.username} readOnly variant="filled" error={form.errors.collector} />
          <TextInput label={HANDOVER_LABELS.currency} value={collector.currency} readOnly variant="filled" error={form.errors.currency} />
        </SimpleGrid>
        <NumberInput
          label={HANDOVER_LABELS.amount}
          description={`${collector.username} holds ${formatMoney(collector.in_hand, collector.currency)}`}
          withAsterisk
          min={0}
          decimalScale={2}
          allowNegative={false}
          thousandSeparator=","
          clampBehavior="none"
          data-autofocus
          rightSection={<span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)', paddingRight: 8 }}>{collector.currency}</span>}
          rightSectionWidth={48}
          {...form.getInputProps('amount')}
        />
        <DateTimePicker
          label={HANDOVER_LABELS.handed_at}
          description="When the cash was counted at the office, or the date on the deposit slip"
          withAsterisk
          valueFormat="DD MMM YYYY HH:mm"
          maxDate={today}
          timePickerProps={{ hoursInputLabel: 'Hour', minutesInputLabel: 'Minutes' }}
          submitButtonProps={{ 'aria-label': 'Set the day and time' }}
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('handed_at')}
        />
        <TextInput
          label={HANDOVER_LABELS.reference}
          placeholder="Deposit slip or receipt number"
          description="Optional"
          maxLength={64}
          autoComplete="off"
          {...form.getInputProps('reference')}
        />
        <Textarea label={HANDOVER_LABELS.note} description="Optional" autosize minRows={2} maxLength={300} {...form.getInputProps('note')} />
        {failure ? <ErrorAlert title={HANDOVER_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={record.isPending}>
            Record Handover
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Record Handover (owners and admins): cash a collector brought to the office
 * or banked. The amount starts at all they hold; a part of it may be handed
 * over. Mounted afresh for each collector: the form starts clean.
 */
export function RecordHandoverModal({ collector, onClose }: { collector: CashCollector | null; onClose: () => void }) {
  const record = useRecordCashHandover();
  const close = () => {
    if (record.isPending) return;
    record.reset();
    onClose();
  };
  const done = () => {
    record.reset();
    onClose();
  };
  return (
    <Modal opened={collector !== null} onClose={close} title="Record Handover" size="md" centered closeOnClickOutside={!record.isPending}>
      {collector ? <HandoverForm key={`${collector.username}:${collector.currency}`} collector={collector} record={record} onCancel={close} onDone={done} /> : null}
    </Modal>
  );
}
