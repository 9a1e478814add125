import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { formatDate } from '@/components/ui/date-text';
import { ErrorAlert } from '@/components/ui/error-alert';
import { formatMoney } from '@/components/ui/money';
import { MAX_REASON, useReason } from '@/components/ui/reason-field';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import type { CommissionPayout } from '../api/types';
import { useVoidCommissionPayout } from '../api/void-commission-payout';
import { monthLabel } from './months';

export const VOID_FAILED = 'Failed to void the payout';
export const REASON_TOO_SHORT = 'Reason must say why, in at least 3 characters';

/** What the payout was: "KES 1,250.00 paid to baraka for November 2026, on Dec 2, 2026, 12:00 PM by mary". */
const payoutText = (p: CommissionPayout, currency: string | null) =>
  `${formatMoney(p.amount, currency)} paid to ${p.agent} for ${monthLabel(p.month)}, on ${formatDate(p.paid_at, true)} by ${p.paid_by}`;

function VoidForm({
  payout,
  currency,
  voiding,
  onCancel,
  onDone,
}: {
  payout: CommissionPayout;
  currency: string | null;
  voiding: ReturnType<typeof useVoidCommissionPayout>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const reason = useReason(REASON_TOO_SHORT);
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
      { payoutId: payout.payout_id, reason: text },
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
    <form onSubmit={submit} noValidate aria-label="Void Payout">
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {payoutText(payout, currency)}
        </Text>
        <Text size="sm" c="dimmed">
          For a payout recorded by mistake: the commission shows as unpaid again. The payout stays in the agent&apos;s history, struck through, with why.
        </Text>
        {otherFailure ? <ErrorAlert title={VOID_FAILED} message={otherFailure} /> : null}
        <Textarea
          label="Reason"
          placeholder="e.g. Recorded for the wrong agent"
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
            Void Payout
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Void Payout (owners and admins): asks why, then the commission shows as unpaid again. */
export function VoidPayoutModal({ payout, currency, onClose }: { payout: CommissionPayout | null; currency: string | null; onClose: () => void }) {
  const voiding = useVoidCommissionPayout();
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
    <Modal opened={payout !== null} onClose={close} title="Void Payout" size="md" centered closeOnClickOutside={!voiding.isPending}>
      {payout ? <VoidForm key={payout.payout_id} payout={payout} currency={currency} voiding={voiding} onCancel={close} onDone={done} /> : null}
    </Modal>
  );
}
