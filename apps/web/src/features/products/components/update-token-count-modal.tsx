import { Alert, Button, Group, Modal, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useUpdateTokenCount } from '../api/update-token-count';
import type { Product, UpdateTokenCountReply } from '../api/types';

export const TOKEN_COUNT_TEXTS = {
  required: 'Please select a product and enter a new token count.',
  success: 'Token count updated successfully!',
  failed: 'Failed to update token count. Please try again.',
} as const;

/**
 * Update Token Count: re-aligns the server's OpenPAYGO count with a device
 * whose count drifted (e.g. a replaced controller). Minimum 0.
 */
export function UpdateTokenCountModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const update = useUpdateTokenCount();
  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };
  return (
    <Modal opened={product !== null} onClose={close} title="Update Token Count" centered>
      {product ? <UpdateTokenCountForm key={product.serial_number} product={product} update={update} onClose={close} /> : null}
    </Modal>
  );
}

function UpdateTokenCountForm({
  product,
  update,
  onClose,
}: {
  product: Product;
  update: ReturnType<typeof useUpdateTokenCount>;
  onClose: () => void;
}) {
  const [count, setCount] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [result, setResult] = useState<UpdateTokenCountReply | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = typeof count === 'number' ? count : Number(count);
    if (!product.serial_number || count === '' || !Number.isInteger(n) || n < 0) {
      setNotice(TOKEN_COUNT_TEXTS.required);
      return;
    }
    setNotice(null);
    update.mutate(
      { serial_number: product.serial_number, new_token_count: n, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      { onSuccess: (reply) => setResult(reply ?? { message: '', serial_number: product.serial_number, old_token_count: product.token_count, new_token_count: n }) },
    );
  };

  if (result) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="alert" title={TOKEN_COUNT_TEXTS.success}>
          Token count of {result.serial_number} changed from {result.old_token_count} to {result.new_token_count}.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Paper withBorder p="sm" radius="md" bg="var(--kidogo-section-bg)">
          <Text size="sm">
            <Text span fw={600}>
              {product.serial_number}
            </Text>{' '}
            · {product.product_name}
          </Text>
          <Text size="sm" c="dimmed">
            Current token count: {product.token_count ?? 0}
          </Text>
        </Paper>
        <NumberInput
          label="New Token Count"
          withAsterisk
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          value={count}
          onChange={setCount}
          data-autofocus
        />
        <TextInput label="Reason" placeholder="Why the count changes (kept in the audit log)" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        {notice ? (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} role="alert">
            {notice}
          </Alert>
        ) : null}
        {update.isError ? (
          <ErrorAlert title={TOKEN_COUNT_TEXTS.failed} message={errorMessage(update.error, TOKEN_COUNT_TEXTS.failed)} />
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Update Token Count
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
