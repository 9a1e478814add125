import { Button, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney } from '@/components/ui/money';
import { apiFieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { useRecordCommissionPayout } from '../api/record-commission-payout';
import { ZCommissionPayoutInputSchema, type CommissionAgent, type CommissionPayoutInput } from '../api/types';
import { monthLabel } from './months';

export const PAYOUT_FAILED = 'Failed to record the payout';

/** The form's fields by the API's names for them (a 400 names the field so), with their labels. */
export const PAYOUT_LABELS = { agent: 'Agent', month: 'Month', reference: 'Reference', note: 'Note' };
type Field = keyof typeof PAYOUT_LABELS;

export interface PayoutFormValues {
  reference: string;
  note: string;
}

/** The request body: the row's agent, the month shown, the reference and note trimmed, empty ones left out. */
export function toPayoutInput(v: PayoutFormValues, agent: string, month: string): CommissionPayoutInput {
  const reference = v.reference.trim();
  const note = v.note.trim();
  return { agent, month, ...(reference ? { reference } : {}), ...(note ? { note } : {}) };
}

function PayoutForm({
  row,
  month,
  currency,
  record,
  onCancel,
  onDone,
}: {
  row: CommissionAgent;
  month: string;
  currency: string | null;
  record: ReturnType<typeof useRecordCommissionPayout>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<PayoutFormValues>({
    mode: 'controlled',
    initialValues: { reference: '', note: '' },
    validate: (v) => schemaErrors<Field>(ZCommissionPayoutInputSchema, toPayoutInput(v, row.agent, month), PAYOUT_LABELS),
    onValuesChange: () => setFailure(null),
  });

  const submit = form.onSubmit((values) => {
    if (record.isPending) return;
    setFailure(null);
    record.mutate(toPayoutInput(values, row.agent, month), {
      onSuccess: (reply) => {
        toast.success(reply.message);
        onDone();
      },
      onError: (error) => {
        // A 400 names its fields: each message goes under its input; anything else (a 409: the month is
        // not over, the agent was paid already, nothing to pay) in the red box, as the API words it.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, PAYOUT_LABELS);
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, PAYOUT_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Mark Paid">
      <Stack gap="md">
        <SimpleGrid cols={2} spacing="md">
          <TextInput label={PAYOUT_LABELS.agent} value={row.agent} readOnly variant="filled" error={form.errors.agent} />
          <TextInput label={PAYOUT_LABELS.month} value={monthLabel(month)} readOnly variant="filled" error={form.errors.month} />
        </SimpleGrid>
        <Stack gap={4}>
          <LabelledFigure label="Commission">
            <Text span fz="xl" fw={700}>
              {formatMoney(row.commission, currency)}
            </Text>
          </LabelledFigure>
          <Text size="xs" c="dimmed">
            For {row.devices_given.toLocaleString()} {row.devices_given === 1 ? 'device' : 'devices'} given and {formatMoney(row.revenue, currency)} collected in{' '}
            {row.payments.toLocaleString()} {row.payments === 1 ? 'payment' : 'payments'}: the amount is kept as it is reckoned now.
          </Text>
        </Stack>
        <TextInput
          label={PAYOUT_LABELS.reference}
          description="An M-Pesa or bank transfer code, a receipt number"
          placeholder="Optional"
          maxLength={64}
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('reference')}
        />
        <Textarea label={PAYOUT_LABELS.note} placeholder="Optional" autosize minRows={2} maxLength={300} {...form.getInputProps('note')} />
        {failure ? <ErrorAlert title={PAYOUT_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={record.isPending}>
            Record Payout
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Mark Paid (owners and admins): records that the agent's commission for a
 * month that is over was paid, the amount as the API reckons it then. Mounted
 * afresh for each agent: the form starts clean.
 */
export function MarkPaidModal({ row, month, currency, onClose }: { row: CommissionAgent | null; month: string; currency: string | null; onClose: () => void }) {
  const record = useRecordCommissionPayout();
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
    <Modal opened={row !== null} onClose={close} title="Mark Paid" size="md" centered closeOnClickOutside={!record.isPending}>
      {row ? <PayoutForm key={`${month}:${row.agent}`} row={row} month={month} currency={currency} record={record} onCancel={close} onDone={done} /> : null}
    </Modal>
  );
}
