import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useUpdateInvoiceStatus } from '../api/update-invoice-status';
import { SCREEN_INVOICE_STATUSES, type Invoice, type InvoiceStatus } from '../api/types';
import { shortId } from './format';
import { InvoiceStatusBadge } from './invoice-status-badge';

const label = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The dialog's choices: the screen's five, plus cancelled only for an invoice
 * that already is (the console can create one so), so it reads as it is.
 */
export const statusChoices = (current: string | null | undefined): InvoiceStatus[] =>
  (current ?? '').trim().toLowerCase() === 'cancelled' ? [...SCREEN_INVOICE_STATUSES, 'cancelled'] : [...SCREEN_INVOICE_STATUSES];

/** Update Invoice Status: any value, freely (spec §4). */
export function UpdateStatusModal({ invoice, admin, onClose }: { invoice: Invoice | null; admin: boolean; onClose: () => void }) {
  const update = useUpdateInvoiceStatus();
  return (
    <Modal opened={invoice !== null} onClose={() => !update.isPending && onClose()} title="Update Invoice Status" centered>
      {invoice ? <StatusForm key={invoice.invoice_id} invoice={invoice} admin={admin} update={update} onClose={onClose} /> : null}
    </Modal>
  );
}

function StatusForm({
  invoice,
  admin,
  update,
  onClose,
}: {
  invoice: Invoice;
  admin: boolean;
  update: ReturnType<typeof useUpdateInvoiceStatus>;
  onClose: () => void;
}) {
  const choices = statusChoices(invoice.stored_status ?? invoice.status);
  const current = choices.find((s) => s === (invoice.stored_status ?? invoice.status)) ?? 'draft';
  const [status, setStatus] = useState<InvoiceStatus>(current);
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text size="sm">
          Invoice <b>{invoice.invoice_number || shortId(invoice.invoice_id)}</b> is now
        </Text>
        <InvoiceStatusBadge status={invoice.status} />
      </Group>
      <Select
        label="New status"
        data={choices.map((s) => ({ value: s, label: label(s) }))}
        value={status}
        onChange={(v) => v && setStatus(v as InvoiceStatus)}
        allowDeselect={false}
        data-autofocus
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button
          loading={update.isPending}
          onClick={() =>
            update.mutate(
              { admin, id: invoice.invoice_id, status },
              {
                onSuccess: () => {
                  toast.success(`Invoice status updated to ${status}`);
                  onClose();
                },
                onError: (e) => toast.error(`Failed to update invoice status: ${errorMessage(e)}`),
              },
            )
          }
        >
          Update Status
        </Button>
      </Group>
    </Stack>
  );
}
