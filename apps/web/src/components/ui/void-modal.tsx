import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { MAX_REASON, useReason } from '@/components/ui/reason-field';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';

/** A mutation that voids something with a reason, as the features' react-query hooks give it. */
export interface VoidMutation<V> {
  mutate: (variables: V, options: { onSuccess: (reply: { message: string }) => void; onError: (error: unknown) => void }) => void;
  reset: () => void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

export interface VoidModalProps<T, V> {
  /** What is voided: the modal is open while it is set. */
  target: T | null;
  /** The target's key: the form starts clean for each. */
  targetKey: (target: T) => string | number;
  /** "Void Handover": the modal's title, the form's name and its button. */
  title: string;
  /** The target in a line ("KES 1,200.00 handed to amina on …"). */
  summary: (target: T) => ReactNode;
  /** What voiding it does. */
  explanation: (target: T) => ReactNode;
  voiding: VoidMutation<V>;
  /** The mutation's variables for the target and the reason given. */
  variables: (target: T, reason: string) => V;
  /** The red box's title when the API refuses for another cause than the reason. */
  failed: string;
  /** Under the reason when it is shorter than the API takes. */
  tooShort: string;
  reasonLabel?: string;
  placeholder: string;
  onClose: () => void;
}

/**
 * Void something recorded by mistake (a cash handover, a discount, a
 * commission payout): says what it is and what voiding it does, asks why,
 * and sends it. A 400 on the reason shows under it, anything else in the red
 * box; the reply's message is the toast.
 */
export function VoidModal<T, V>({ target, targetKey, title, voiding, onClose, ...form }: VoidModalProps<T, V>) {
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
    <Modal opened={target !== null} onClose={close} title={title} size="md" centered closeOnClickOutside={!voiding.isPending}>
      {target !== null ? <VoidForm key={targetKey(target)} target={target} title={title} voiding={voiding} onCancel={close} onDone={done} {...form} /> : null}
    </Modal>
  );
}

function VoidForm<T, V>({
  target,
  title,
  summary,
  explanation,
  voiding,
  variables,
  failed,
  tooShort,
  reasonLabel = 'Reason',
  placeholder,
  onCancel,
  onDone,
}: Omit<VoidModalProps<T, V>, 'target' | 'targetKey' | 'onClose'> & { target: T; onCancel: () => void; onDone: () => void }) {
  const reason = useReason(tooShort);
  // The API's word on the reason (a 400 naming it) until it is typed again.
  const [refused, setRefused] = useState<string | null>(null);
  const reasonError = refused ? `${reasonLabel} ${refused}` : reason.field.error;
  const otherFailure = voiding.isError && !refused ? errorMessage(voiding.error, failed) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefused(null);
    const text = reason.take();
    if (text === null || voiding.isPending) return;
    voiding.mutate(variables(target, text), {
      onSuccess: (reply) => {
        toast.success(reply.message);
        onDone();
      },
      onError: (error) => setRefused(apiFieldErrors(error).reason ?? null),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {summary(target)}
        </Text>
        <Text size="sm" c="dimmed">
          {explanation(target)}
        </Text>
        {otherFailure ? <ErrorAlert title={failed} message={otherFailure} /> : null}
        <Textarea
          label={reasonLabel}
          placeholder={placeholder}
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
            {title}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
