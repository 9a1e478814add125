import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { MAX_REASON, useReason } from '@/components/ui/reason-field';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { CashLedgerEntry } from '../api/types';
import { useVoidCashHandover } from '../api/void-cash-handover';

export const VOID_FAILED = 'Failed to void the handover';

/** What the handover was: "KES 1,200.00 handed to amina on 4 Dec 2026, 10:00". */
const handoverText = (h: CashLedgerEntry) =>
  `${formatMoney(Math.abs(Number(h.amount)), h.currency)} handed to ${h.received_by ?? 'the office'} on ${formatDate(h.at, true)}`;

function VoidForm({
  handover,
  collector,
  voiding,
  onCancel,
  onDone,
}: {
  handover: CashLedgerEntry;
  collector: string;
  voiding: ReturnType<typeof useVoidCashHandover>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const reason = useReason('Say why, in at least 3 characters');
  // The API's word on the reason (a 400 naming it) until it is typed again.
  const [refused, setRefused] = useState<string | null>(null);
  const reasonError = refused ? `Reason ${refused}` : reason.field.error;
  const otherFailure = voiding.isError && !refused ? errorMessage(voiding.error, VOID_FAILED) : null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setRefused(null);
    const text = reason.take();
    if (text === null || voiding.isPending) return;
    voiding.mutate(
      { handoverId: handover.id, reason: text },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          onDone();
        },
        onError: (error) => setRefused(apiFieldErrors(error).reason ?? null),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Void Handover">
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {handoverText(handover)}
        </Text>
        <Text size="sm" c="dimmed">
          For a handover recorded by mistake: the cash counts as held by {collector} again. The handover stays in the ledger, struck through, with
          why.
        </Text>
        {otherFailure ? <ErrorAlert title={VOID_FAILED} message={otherFailure} /> : null}
        <Textarea
          label="Why?"
          placeholder="e.g. Recorded twice: the deposit slip was entered yesterday"
          withAsterisk
          autosize
          minRows={2}
          maxLength={MAX_REASON}
          disabled={voiding.isPending}
          data-autofocus
          {...reason.field}
          onChange={(e) => {
            setRefused(null);
            reason.field.onChange(e);
          }}
          error={reasonError}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={voiding.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={voiding.isPending}>
            Void Handover
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Void Handover (owners and admins): asks why, then the cash counts as held again. */
export function VoidHandoverModal({ handover, collector, onClose }: { handover: CashLedgerEntry | null; collector: string; onClose: () => void }) {
  const voiding = useVoidCashHandover();
  const close = () => {
    if (voiding.isPending) return;
    voiding.reset();
    onClose();
  };
  const done = () => {
    voiding.reset();
    onClose();
  };
  return (
    <Modal opened={handover !== null} onClose={close} title="Void Handover" size="md" centered closeOnClickOutside={!voiding.isPending}>
      {handover ? <VoidForm key={handover.id} handover={handover} collector={collector} voiding={voiding} onCancel={close} onDone={done} /> : null}
    </Modal>
  );
}
