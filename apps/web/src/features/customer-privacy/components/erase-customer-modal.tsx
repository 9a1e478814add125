import { Button, Group, List, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconEraser } from '@tabler/icons-react';
import { ZEraseCustomerSchema } from '@kidogo/contracts';
import { useState } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors } from '@/lib/validation';
import { useEraseCustomer } from '../api/erase-customer';

export const ERASE_FAILED = 'Failed to erase the personal data';

export interface ErasableCustomer {
  customer_id: number;
  customer_name: string;
}

/** Typing the name is the confirmation: trimmed, in any case. */
export const namesMatch = (typed: string, name: string) => typed.trim().toLowerCase() === name.trim().toLowerCase();

/**
 * Asks why, and for the customer's name typed out, before erasing what is
 * held about them: it cannot be undone.
 */
export function EraseCustomerModal({ customer, onClose }: { customer: ErasableCustomer | null; onClose: () => void }) {
  const erase = useEraseCustomer();
  const close = () => {
    if (erase.isPending) return;
    erase.reset();
    onClose();
  };
  return (
    <Modal opened={customer !== null} onClose={close} title="Erase personal data?" size="md" centered>
      {customer ? <EraseForm key={customer.customer_id} customer={customer} erase={erase} onCancel={close} onDone={onClose} /> : null}
    </Modal>
  );
}

function EraseForm({
  customer,
  erase,
  onCancel,
  onDone,
}: {
  customer: ErasableCustomer;
  erase: ReturnType<typeof useEraseCustomer>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [typedName, setTypedName] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const confirmed = namesMatch(typedName, customer.customer_name);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!confirmed || erase.isPending) return;
    const checked = ZEraseCustomerSchema.safeParse({ reason });
    if (!checked.success) {
      setReasonError(`Reason ${checked.error.issues[0]?.message ?? 'is required'}`);
      return;
    }
    setReasonError(null);
    erase.mutate(
      { customerId: customer.customer_id, ...checked.data },
      {
        onSuccess: (reply) => {
          toast.success(reply.message);
          erase.reset();
          onDone();
        },
        // A 400 goes under Reason; anything else (409: still paying, already erased) in the box above.
        onError: (error) => setReasonError(labelledFieldErrors(apiFieldErrors(error), { reason: 'Reason' }).reason ?? null),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Erase personal data">
      <Stack gap="md">
        <Text size="sm">
          This erases what is held about{' '}
          <Text span fw={600}>
            {customer.customer_name}
          </Text>
          :
        </Text>
        <List size="sm" spacing={2}>
          <List.Item>their name, ID number, phone, email, address and the rest of their profile are removed;</List.Item>
          <List.Item>their documents (ID card, photos, agreement) are deleted;</List.Item>
          <List.Item>payer names and phone numbers are taken out of their payments;</List.Item>
          <List.Item>texts from and to them are blanked;</List.Item>
          <List.Item>activity log entries no longer name them.</List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Their payments, codes and devices stay in the books, under “Erased customer”. This cannot be undone.
        </Text>
        {erase.isError && !reasonError ? <ErrorAlert title={ERASE_FAILED} message={errorMessage(erase.error, ERASE_FAILED)} /> : null}
        <Textarea
          label="Reason"
          placeholder="The customer asked in writing on 12 Nov"
          withAsterisk
          autosize
          minRows={2}
          maxLength={200}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setReasonError(null);
          }}
          error={reasonError}
          disabled={erase.isPending}
          data-autofocus
        />
        <TextInput
          label="Type the customer's name to confirm"
          placeholder={customer.customer_name}
          autoComplete="off"
          value={typedName}
          onChange={(e) => setTypedName(e.currentTarget.value)}
          disabled={erase.isPending}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={erase.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" leftSection={<IconEraser size={16} />} disabled={!confirmed} loading={erase.isPending}>
            Erase Personal Data
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
