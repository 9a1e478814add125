import { ActionIcon, Button, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { IconCash, IconDotsVertical, IconDownload, IconEye, IconMail, IconRefreshDot, IconTrash } from '@tabler/icons-react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import type { Invoice } from '../api/types';
import { currencyOf, formatAmount, organizationLabel, shortId } from './format';
import { InvoiceStatusBadge } from './invoice-status-badge';

export type InvoiceAction = 'view' | 'status' | 'delete' | 'report-payment' | 'email';

const unpaid = (inv: Invoice) => !['paid', 'cancelled'].includes(String(inv.status).toLowerCase());

export function InvoicesTable({
  rows,
  loading,
  error,
  onRetry,
  emptyText,
  manage,
  canReportPayment,
  downloadingId,
  onDownload,
  onAction,
}: {
  rows: Invoice[];
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  emptyText: string;
  manage: boolean;
  canReportPayment: boolean;
  downloadingId: string | null;
  onDownload: (invoice: Invoice) => void;
  onAction: (action: InvoiceAction, invoice: Invoice) => void;
}) {
  const columns: Column<Invoice>[] = [
    {
      key: 'id',
      header: 'Invoice ID',
      render: (inv) => (
        <Stack gap={0}>
          <Tooltip label={inv.invoice_id} withinPortal>
            <Text size="sm" ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {shortId(inv.invoice_id)}
            </Text>
          </Tooltip>
          {inv.invoice_number ? (
            <Text size="xs" c="dimmed">
              {inv.invoice_number}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'org', header: 'Organization', render: (inv) => organizationLabel(inv) },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      render: (inv) => (
        <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatAmount(inv.amount)}
        </Text>
      ),
    },
    { key: 'currency', header: 'Currency', render: (inv) => currencyOf(inv) },
    { key: 'status', header: 'Status', render: (inv) => <InvoiceStatusBadge status={inv.status} /> },
    { key: 'due', header: 'Due Date', render: (inv) => <DateText value={inv.due_date} /> },
    { key: 'created', header: 'Created', render: (inv) => <DateText value={inv.created_at} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (inv) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            loading={downloadingId === inv.invoice_id}
            onClick={() => onDownload(inv)}
            aria-label={`Download PDF of ${inv.invoice_number || shortId(inv.invoice_id)}`}
          >
            PDF
          </Button>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${inv.invoice_number || shortId(inv.invoice_id)}`}>
                <IconDotsVertical size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEye size={14} />} onClick={() => onAction('view', inv)}>
                View Invoice
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} onClick={() => onDownload(inv)}>
                Download PDF
              </Menu.Item>
              {canReportPayment && unpaid(inv) ? (
                <Menu.Item leftSection={<IconCash size={14} />} onClick={() => onAction('report-payment', inv)}>
                  Report Payment
                </Menu.Item>
              ) : null}
              {manage ? (
                <>
                  {String(inv.status).toLowerCase() !== 'cancelled' ? (
                    <Menu.Item leftSection={<IconMail size={14} />} onClick={() => onAction('email', inv)}>
                      Email Invoice
                    </Menu.Item>
                  ) : null}
                  <Menu.Item leftSection={<IconRefreshDot size={14} />} onClick={() => onAction('status', inv)}>
                    Update Status
                  </Menu.Item>
                  <Menu.Divider />
                  <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onAction('delete', inv)}>
                    Delete Invoice
                  </Menu.Item>
                </>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];
  return (
    <DataTable
      caption="Invoices"
      columns={columns}
      rows={rows}
      rowKey={(inv) => inv.invoice_id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={emptyText}
      minWidth={980}
    />
  );
}
