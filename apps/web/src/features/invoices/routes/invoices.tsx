import { Button, Card, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCash, IconCircleCheck, IconClock, IconFileInvoice, IconPlus, IconRefresh, IconSearch, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { PaginationControl } from '@/components/ui/pagination-control';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import { otherCurrencies } from '@/components/ui/money';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { canManageInvoices, isSuperAdmin } from '../api/access';
import { useDeleteInvoice } from '../api/delete-invoice';
import { useDownloadInvoice } from '../api/download-invoice';
import { useInvoiceStats } from '../api/get-invoice-stats';
import { INVOICE_FETCH_LIMIT, INVOICE_PAGE_SIZE, useInvoices } from '../api/get-invoices';
import { invoiceKeys } from '../api/keys';
import type { Invoice } from '../api/types';
import { CreateInvoiceModal } from '../components/create-invoice-modal';
import { currencyOf, formatAmount, organizationLabel } from '../components/format';
import { InvoiceSettingsModal } from '../components/invoice-settings-modal';
import { InvoicesTable, type InvoiceAction } from '../components/invoices-table';
import { ReportPaymentModal } from '../components/report-payment-modal';
import { UpdateStatusModal } from '../components/update-status-modal';
import { EmailInvoiceModal } from '../components/email-invoice-modal';
import { ViewInvoiceModal } from '../components/view-invoice-modal';

const SEARCH_FIELDS = [
  { value: 'invoice_id', label: 'Invoice ID' },
  { value: 'organization', label: 'Organization' },
  { value: 'status', label: 'Status' },
  { value: 'description', label: 'Description' },
  { value: 'amount', label: 'Amount' },
] as const;
type SearchField = (typeof SEARCH_FIELDS)[number]['value'];

function fieldText(inv: Invoice, field: SearchField): string {
  switch (field) {
    case 'invoice_id':
      return `${inv.invoice_id} ${inv.invoice_number ?? ''}`;
    case 'organization':
      return organizationLabel(inv);
    case 'status':
      return String(inv.status ?? '');
    case 'description':
      return inv.description ?? '';
    case 'amount':
      return `${inv.amount} ${formatAmount(inv.amount)} ${currencyOf(inv)}`;
  }
}

export const DELETE_QUESTION = 'Are you sure you want to delete this invoice? This action cannot be undone.';

/** Invoices: the platform's bills to organizations. */
export default function InvoicesRoute() {
  const qc = useQueryClient();
  const { user } = useSession();
  const admin = isSuperAdmin(user);
  const manage = canManageInvoices(user);
  const invoices = useInvoices(admin);
  const stats = useInvoiceStats(admin);
  const download = useDownloadInvoice();
  const remove = useDeleteInvoice();
  const [field, setField] = useState<SearchField>('invoice_id');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [createOpened, createModal] = useDisclosure(false);
  const [settingsOpened, settingsModal] = useDisclosure(false);
  const [dialog, setDialog] = useState<{ action: InvoiceAction; invoice: Invoice } | null>(null);

  const filtered = useMemo(() => {
    const all = invoices.data?.data ?? [];
    const t = term.trim().toLowerCase();
    return t ? all.filter((inv) => fieldText(inv, field).toLowerCase().includes(t)) : all;
  }, [invoices.data, term, field]);
  const pages = Math.max(1, Math.ceil(filtered.length / INVOICE_PAGE_SIZE));
  const current = Math.min(page, pages);
  const rows = filtered.slice((current - 1) * INVOICE_PAGE_SIZE, current * INVOICE_PAGE_SIZE);

  const onDownload = (inv: Invoice) =>
    download.mutate(inv.invoice_id, { onError: () => toast.error('Failed to download invoice') });
  const dialogFor = (action: InvoiceAction) => (dialog?.action === action ? dialog.invoice : null);
  const closeDialog = () => {
    remove.reset();
    setDialog(null);
  };

  const s = stats.data;
  return (
    <>
      <PageHeader
        title="Invoices"
        subtitle={admin ? 'Invoices of every organization on the platform.' : 'Invoices billed to your organization.'}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: invoiceKeys.all })}
              loading={invoices.isFetching && !invoices.isPending}
            >
              Refresh
            </Button>
            {manage ? (
              <>
                <Button variant="default" leftSection={<IconSettings size={16} />} onClick={settingsModal.open}>
                  Settings
                </Button>
                <Button leftSection={<IconPlus size={16} />} onClick={createModal.open}>
                  Create Invoice
                </Button>
              </>
            ) : null}
          </>
        }
      />
      {s ? (
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="lg">
          <StatCard label="Total Invoices" value={(s.total_invoices ?? 0).toLocaleString()} icon={<IconFileInvoice size={18} />} />
          <StatCard label="Paid Invoices" value={(s.paid_invoices ?? 0).toLocaleString()} color="green" icon={<IconCircleCheck size={18} />} />
          <StatCard
            label="Pending Invoices"
            value={(s.pending_invoices ?? 0).toLocaleString()}
            color="yellow"
            icon={<IconClock size={18} />}
            hint={s.overdue_invoices ? `${s.overdue_invoices} overdue` : undefined}
          />
          <StatCard
            label="Total Revenue"
            value={<StatMoney amount={s.total_revenue} currency={s.currency} />}
            color="teal"
            icon={<IconCash size={18} />}
            hint={otherCurrencies((s.by_currency ?? []).map((c) => ({ currency: c.currency, amount: c.total_revenue })), s.currency)}
          />
        </SimpleGrid>
      ) : null}
      <Card padding="md" radius="md">
        <Group gap="sm" mb="md" wrap="wrap">
          <Select
            aria-label="Search by"
            w={170}
            allowDeselect={false}
            data={SEARCH_FIELDS.map((f) => ({ value: f.value, label: f.label }))}
            value={field}
            onChange={(v) => {
              if (v) setField(v as SearchField);
              setPage(1);
            }}
          />
          <TextInput
            aria-label="Search invoices"
            placeholder={`Search by ${SEARCH_FIELDS.find((f) => f.value === field)?.label.toLowerCase()}...`}
            leftSection={<IconSearch size={16} />}
            value={term}
            onChange={(e) => {
              setTerm(e.currentTarget.value);
              setPage(1);
            }}
            style={{ flex: '1 1 260px', maxWidth: 420 }}
          />
        </Group>
        <InvoicesTable
          rows={rows}
          loading={invoices.isPending}
          error={invoices.isError ? 'Failed to load invoices' : null}
          onRetry={() => void invoices.refetch()}
          emptyText={term.trim() ? 'No invoices match your search' : 'No invoices found'}
          manage={manage}
          canReportPayment={!admin}
          downloadingId={download.isPending ? (download.variables ?? null) : null}
          onDownload={onDownload}
          onAction={(action, invoice) => setDialog({ action, invoice })}
        />
        <PaginationControl page={current} total={filtered.length} pageSize={INVOICE_PAGE_SIZE} onPageChange={setPage} itemLabel="invoices" />
        {(invoices.data?.total ?? 0) > INVOICE_FETCH_LIMIT ? (
          <Text size="xs" c="dimmed" mt="sm">
            Showing the {INVOICE_FETCH_LIMIT} most recent of {invoices.data?.total} invoices.
          </Text>
        ) : null}
      </Card>

      {manage ? (
        <>
          <CreateInvoiceModal opened={createOpened} onClose={createModal.close} admin={admin} />
          <InvoiceSettingsModal opened={settingsOpened} onClose={settingsModal.close} admin={admin} />
          <UpdateStatusModal invoice={dialogFor('status')} admin={admin} onClose={closeDialog} />
          <EmailInvoiceModal invoice={dialogFor('email')} admin={admin} onClose={closeDialog} />
          <ConfirmModal
            opened={dialog?.action === 'delete'}
            onClose={closeDialog}
            title="Delete Invoice"
            message={DELETE_QUESTION}
            confirmLabel="Delete Invoice"
            loading={remove.isPending}
            onConfirm={() => {
              const inv = dialogFor('delete');
              if (!inv) return;
              remove.mutate(
                { admin, id: inv.invoice_id },
                {
                  onSuccess: () => {
                    toast.success('Invoice deleted successfully');
                    closeDialog();
                  },
                  onError: (e) => toast.error(`Failed to delete invoice: ${errorMessage(e)}`),
                },
              );
            }}
          />
        </>
      ) : null}
      <ReportPaymentModal invoice={dialogFor('report-payment')} onClose={closeDialog} />
      <ViewInvoiceModal
        invoice={dialogFor('view')}
        onClose={closeDialog}
        onDownload={onDownload}
        downloading={download.isPending}
      />
    </>
  );
}
