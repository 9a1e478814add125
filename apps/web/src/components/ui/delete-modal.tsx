import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { ConfirmModal } from './confirm-modal';

/**
 * Delete {thing}: asks first, runs the delete mutation, and on success says
 * so and closes; the API's refusal (why it cannot be deleted) stays shown in
 * the dialog. Closing is refused while the delete runs.
 */
export function DeleteModal<T, V>({
  target,
  onClose,
  title,
  message,
  failure,
  mutation,
  variables,
  success,
}: {
  target: T | null;
  onClose: () => void;
  /** The dialog's title, also the confirm button's label ('Delete Customer'). */
  title: string;
  /** The question, naming what is deleted. */
  message: ReactNode;
  /** Shown when the API gives no reason ('Failed to delete customer'). */
  failure: string;
  mutation: UseMutationResult<unknown, unknown, V>;
  variables: (target: T) => V;
  success: (target: T) => string;
}) {
  const close = () => {
    if (mutation.isPending) return;
    mutation.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={target !== null}
      onClose={close}
      title={title}
      message={message}
      confirmLabel={title}
      loading={mutation.isPending}
      error={mutation.isError ? errorMessage(mutation.error, failure) : null}
      errorTitle={failure}
      onConfirm={() => {
        if (!target) return;
        mutation.mutate(variables(target), {
          onSuccess: () => {
            toast.success(success(target));
            mutation.reset();
            onClose();
          },
        });
      }}
    />
  );
}
