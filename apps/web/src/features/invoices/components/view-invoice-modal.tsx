import { Box, Button, Center, Group, Loader, Modal } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorMessage } from '@/lib/api-client';
import { useInvoiceHtml } from '../api/get-invoice-html';
import type { Invoice } from '../api/types';
import { shortId } from './format';

/** The invoice as the server renders it (GET /invoice/{id}), in a sandboxed frame: its HTML runs nothing. */
export function ViewInvoiceModal({
  invoice,
  onClose,
  onDownload,
  downloading,
}: {
  invoice: Invoice | null;
  onClose: () => void;
  onDownload: (invoice: Invoice) => void;
  downloading: boolean;
}) {
  const html = useInvoiceHtml(invoice?.invoice_id ?? null);
  return (
    <Modal
      opened={invoice !== null}
      onClose={onClose}
      title={`Invoice ${invoice ? invoice.invoice_number || shortId(invoice.invoice_id) : ''}`}
      size="xl"
      centered
    >
      {html.isPending ? (
        <Center py="xl" role="status" aria-label="Loading">
          <Loader size="sm" />
        </Center>
      ) : html.isError ? (
        <ErrorAlert message={errorMessage(html.error, 'Failed to load invoice')} onRetry={() => void html.refetch()} />
      ) : (
        <Box bd="1px solid var(--mantine-color-default-border)" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
          <iframe title="Invoice preview" sandbox="" srcDoc={html.data} style={{ width: '100%', height: '70vh', border: 0, background: '#fff' }} />
        </Box>
      )}
      {invoice ? (
        <Group justify="flex-end" mt="md">
          <Button leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => onDownload(invoice)}>
            Download PDF
          </Button>
        </Group>
      ) : null}
    </Modal>
  );
}
