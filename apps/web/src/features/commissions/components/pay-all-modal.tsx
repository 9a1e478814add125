import { Button, Group, Modal, ScrollArea, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { LabelledFigure } from '@/components/ui/labelled-figure';
import { formatMoney } from '@/components/ui/money';
import { apiFieldErrors } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, refusalBeside, schemaErrors } from '@/lib/validation';
import { usePayAllCommissions } from '../api/pay-all-commissions';
import { ZCommissionPayAllInputSchema, type CommissionMonth, type CommissionPayAllInput } from '../api/types';
import { monthLabel } from './months';
import type { PayoutFormValues } from './mark-paid-modal';

export const PAY_ALL_FAILED = 'Failed to record the payouts';

/** The form's fields by the API's names for them (a 400 names the field so), with their labels. */
export const PAY_ALL_LABELS = { month: 'Month', total: 'Total', reference: 'Reference', note: 'Note' };
type Field = keyof typeof PAY_ALL_LABELS;

/** The request body: the month shown and the unpaid total on screen (the API pays only if it still owes that), the rest trimmed. */
export function toPayAllInput(v: PayoutFormValues, month: CommissionMonth): CommissionPayAllInput {
  const reference = v.reference.trim();
  const note = v.note.trim();
  return { month: month.month, total: month.totals.unpaid, ...(reference ? { reference } : {}), ...(note ? { note } : {}) };
}

function PayAllForm({
  month,
  currency,
  payAll,
  onCancel,
  onDone,
}: {
  month: CommissionMonth;
  currency: string | null;
  payAll: ReturnType<typeof usePayAllCommissions>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const owed = month.data.filter((a) => a.status === 'unpaid');
  const form = useForm<PayoutFormValues>({
    mode: 'controlled',
    initialValues: { reference: '', note: '' },
    validate: (v) => schemaErrors<Field>(ZCommissionPayAllInputSchema, toPayAllInput(v, month), PAY_ALL_LABELS),
    onValuesChange: () => setFailure(null),
  });

  const submit = form.onSubmit((values) => {
    if (payAll.isPending) return;
    setFailure(null);
    payAll.mutate(toPayAllInput(values, month), {
      onSuccess: (reply) => {
        toast.success(reply.message);
        onDone();
      },
      onError: (error) => {
        // A 400 names its fields; a 409 (the month owes another total now, nothing is owed) goes in the red box as
        // the API words it, and the month is read again behind the dialog.
        const fields = apiFieldErrors(error);
        const shown = labelledFieldErrors(fields, PAY_ALL_LABELS);
        form.setErrors(shown);
        setFailure(refusalBeside(error, fields, shown, PAY_ALL_FAILED));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Pay All Owed">
      <Stack gap="md">
        <LabelledFigure label={`Owed for ${monthLabel(month.month)}`}>
          <Text span fz="xl" fw={700}>
            {formatMoney(month.totals.unpaid, currency)}
          </Text>{' '}
          <Text span size="sm" c="dimmed">
            to {owed.length.toLocaleString()} {owed.length === 1 ? 'agent' : 'agents'}
          </Text>
        </LabelledFigure>
        <ScrollArea.Autosize mah={220} type="auto">
          <Table striped fz="sm" aria-label="Agents to pay">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Agent</Table.Th>
                <Table.Th ta="right">Commission</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {owed.map((a) => (
                <Table.Tr key={a.agent}>
                  <Table.Td>{a.agent}</Table.Td>
                  <Table.Td ta="right">{formatMoney(a.commission, currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Text size="xs" c="dimmed">
          Each agent gets a payout of their own, the amount kept as it is reckoned now. If the month owes another total by the time you record
          them (a payment came in, someone paid an agent), nothing is recorded and the month is shown again.
        </Text>
        <TextInput
          label={PAY_ALL_LABELS.reference}
          description="The bank batch or M-Pesa bulk payment code, kept on every payout"
          placeholder="Optional"
          maxLength={64}
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('reference')}
        />
        <Textarea label={PAY_ALL_LABELS.note} placeholder="Optional" autosize minRows={2} maxLength={300} {...form.getInputProps('note')} />
        {form.errors.total || form.errors.month ? <ErrorAlert title={PAY_ALL_FAILED} message={String(form.errors.total ?? form.errors.month)} /> : null}
        {failure ? <ErrorAlert title={PAY_ALL_FAILED} message={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={payAll.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={payAll.isPending}>
            Record {owed.length.toLocaleString()} {owed.length === 1 ? 'Payout' : 'Payouts'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Pay All Owed (owners and admins): records every agent still owed for a month that is over as paid, at once, as a
 * bank's bulk transfer pays them. Mounted afresh each time it opens: the form starts clean.
 */
export function PayAllModal({ month, currency, opened, onClose }: { month: CommissionMonth | undefined; currency: string | null; opened: boolean; onClose: () => void }) {
  const payAll = usePayAllCommissions();
  const close = () => {
    if (payAll.isPending) return;
    payAll.reset();
    onClose();
  };
  const done = () => {
    payAll.reset();
    onClose();
  };
  return (
    <Modal opened={opened && month !== undefined} onClose={close} title="Pay All Owed" size="md" centered closeOnClickOutside={!payAll.isPending}>
      {opened && month ? <PayAllForm key={month.month} month={month} currency={currency} payAll={payAll} onCancel={close} onDone={done} /> : null}
    </Modal>
  );
}
