import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { ZInvoiceEmailSchema } from '@kidogo/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { DateText } from '@/components/ui/date-text';
import { apiFieldErrors, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { labelledFieldErrors, schemaErrors } from '@/lib/validation';
import { useEmailInvoice } from '../api/email-invoice';
import type { Invoice } from '../api/types';
import { shortId } from './format';

export const EMAIL_FAILED = 'Failed to email the invoice';
const LABELS = { to: 'Email address', message: 'Message' };
type Field = keyof typeof LABELS;

/** Email Invoice: the PDF to the invoice's customer email (or another address), with an optional message first. */
export function EmailInvoiceModal({ invoice, admin, onClose }: { invoice: Invoice | null; admin: boolean; onClose: () => void }) {
  const send = useEmailInvoice();
  return (
    <Modal opened={invoice !== null} onClose={() => !send.isPending && onClose()} title="Email Invoice" centered>
      {invoice ? <EmailForm key={invoice.invoice_id} invoice={invoice} admin={admin} send={send} onClose={onClose} /> : null}
    </Modal>
  );
}

function EmailForm({
  invoice,
  admin,
  send,
  onClose,
}: {
  invoice: Invoice;
  admin: boolean;
  send: ReturnType<typeof useEmailInvoice>;
  onClose: () => void;
}) {
  const [to, setTo] = useState(invoice.customer_email ?? '');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const name = invoice.invoice_number || shortId(invoice.invoice_id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const body = { to: to.trim(), ...(message.trim() ? { message: message.trim() } : {}) };
    const found: Partial<Record<Field, string>> = schemaErrors(ZInvoiceEmailSchema, body, LABELS);
    if (!body.to) found.to = 'Email address is required';
    setErrors(found);
    setFailure(null);
    if (Object.values(found).some(Boolean)) return;
    send.mutate(
      { admin, id: invoice.invoice_id, body },
      {
        onSuccess: (sent) => {
          toast.success(`Invoice ${name} emailed to ${sent.emailed_to ?? body.to}`);
          onClose();
        },
        onError: (e) => {
          const fields = labelledFieldErrors(apiFieldErrors(e), LABELS);
          setErrors(fields);
          setFailure(Object.keys(fields).length ? null : errorMessage(e, EMAIL_FAILED));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Email invoice">
      <Stack gap="md">
        <Text size="sm">
          The PDF of invoice <b>{name}</b> goes attached to a short email saying what is due and by when.
          {invoice.stored_status === 'draft' || invoice.stored_status === 'pending' ? ' The invoice is then marked sent.' : null}
        </Text>
        {invoice.emailed_at ? (
          <Text size="sm" c="dimmed">
            Last emailed to {invoice.emailed_to} on <DateText value={invoice.emailed_at} withTime />.
          </Text>
        ) : null}
        {failure ? <ErrorAlert title={EMAIL_FAILED} message={failure} /> : null}
        <TextInput
          label="Email address"
          type="email"
          withAsterisk
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            setErrors((x) => ({ ...x, to: undefined }));
          }}
          error={errors.to}
          data-autofocus
        />
        <Textarea
          label="Message"
          description="Optional: shown above the invoice's summary"
          autosize
          minRows={2}
          maxRows={6}
          value={message}
          onChange={(e) => {
            setMessage(e.currentTarget.value);
            setErrors((x) => ({ ...x, message: undefined }));
          }}
          error={errors.message}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" leftSection={<IconMail size={16} />} loading={send.isPending}>
            Send Email
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
