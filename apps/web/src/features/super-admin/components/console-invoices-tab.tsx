import { ActionIcon, Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCash, IconCircleCheck, IconClock, IconEye, IconFileInvoice, IconMail, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from '@/components/ui/confirm-modal';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { otherCurrencies } from '@/components/ui/money';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/api-client';
import { useConsoleInvoices, useConsoleInvoiceStats, useDeleteConsoleInvoice, useMarkInvoicePaid } from '../api/console-invoices';
import type { ConsoleInvoice } from '../api/types';
import { consoleInvoiceColor, dollars } from './console-invoice-format';
import { useConsoleFeedback } from './console-feedback';
import { CreateConsoleInvoiceModal } from './create-console-invoice-modal';
import { EmailInvoiceModal } from '@/features/invoices/components/email-invoice-modal';

/**
 * Still to be paid: pending, or overdue (a pending invoice past its due date
 * reads as overdue; the server accepts paid for it like for any other).
 */
const canMarkPaid = (inv: ConsoleInvoice) => ['pending', 'overdue'].includes(inv.status.toLowerCase());
const label = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : 'Unknown');

function StatusBadge({ status }: { status: string }) {
  return (
    <Badge miw="max-content" color={consoleInvoiceColor(status)} variant="light" radius="sm">
      {label(status)}
    </Badge>
  );
}

function Field({ label: name, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {name}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Invoice Management: every organization's invoices; mark pending or overdue ones paid, delete, create. */
export function ConsoleInvoicesTab() {
  const feedback = useConsoleFeedback();
  const invoices = useConsoleInvoices();
  const stats = useConsoleInvoiceStats();
  const markPaid = useMarkInvoicePaid();
  const remove = useDeleteConsoleInvoice();
  const [createOpened, createModal] = useDisclosure(false);
  const [viewing, setViewing] = useState<ConsoleInvoice | null>(null);
  const [deleting, setDeleting] = useState<ConsoleInvoice | null>(null);
  const [emailing, setEmailing] = useState<ConsoleInvoice | null>(null);

  const pay = (inv: ConsoleInvoice) =>
    markPaid.mutate(inv.invoice_id, {
      onSuccess: () => {
        feedback.success('Invoice status updated to paid');
        setViewing(null);
      },
      onError: (e) => feedback.error(`Failed to update invoice status: ${errorMessage(e)}`),
    });

  const columns: Column<ConsoleInvoice>[] = [
    {
      key: 'number',
      header: 'Invoice #',
      render: (inv) => (
        <Text size="sm" fw={600} ff="monospace">
          {inv.invoice_number || inv.invoice_id}
        </Text>
      ),
    },
    { key: 'org', header: 'Organization', render: (inv) => inv.organization_name || inv.organization_id },
    {
      key: 'customer',
      header: 'Customer',
      render: (inv) => (
        <Stack gap={0}>
          <Text size="sm">{inv.customer_name || '—'}</Text>
          <Text size="xs" c="dimmed">
            {inv.customer_email || ''}
          </Text>
        </Stack>
      ),
    },
    { key: 'amount', header: 'Amount ($)', align: 'right', render: (inv) => <Text size="sm" fw={600}>{dollars(inv.amount)}</Text> },
    { key: 'status', header: 'Status', render: (inv) => <StatusBadge status={inv.status} /> },
    { key: 'due', header: 'Due Date', render: (inv) => (inv.due_date ? formatDate(inv.due_date) : '-') },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (inv) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="View details">
            <ActionIcon variant="subtle" aria-label={`View invoice ${inv.invoice_number || inv.invoice_id}`} onClick={() => setViewing(inv)}>
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
          {canMarkPaid(inv) ? (
            <Button size="compact-xs" variant="light" color="green" onClick={() => pay(inv)} loading={markPaid.isPending && markPaid.variables === inv.invoice_id}>
              Mark as Paid
            </Button>
          ) : null}
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete invoice ${inv.invoice_number || inv.invoice_id}`} onClick={() => setDeleting(inv)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  const s = stats.data;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>Invoice Management</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={createModal.open}>
          Create Invoice
        </Button>
      </Group>
      {s ? (
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <StatCard label="Total Invoices" value={(s.total_invoices ?? 0).toLocaleString()} icon={<IconFileInvoice size={18} />} />
          <StatCard label="Paid Invoices" value={(s.paid_invoices ?? 0).toLocaleString()} color="green" icon={<IconCircleCheck size={18} />} />
          <StatCard
            label="Pending Invoices"
            value={(s.pending_invoices ?? 0).toLocaleString()}
            color="yellow"
            icon={<IconClock size={18} />}
            // Overdue ones are counted apart from pending, as on the Invoices page.
            hint={s.overdue_invoices ? `${s.overdue_invoices} overdue` : undefined}
          />
          <StatCard
            label="Total Revenue"
            value={s.currency === 'USD' ? dollars(s.total_revenue) : <StatMoney amount={s.total_revenue} currency={s.currency} />}
            color="teal"
            icon={<IconCash size={18} />}
            hint={otherCurrencies((s.by_currency ?? []).map((c) => ({ currency: c.currency, amount: c.total_revenue })), s.currency)}
          />
        </SimpleGrid>
      ) : null}
      <Card padding="md" radius="md">
        <DataTable
          caption="Console invoices"
          columns={columns}
          rows={invoices.data}
          rowKey={(inv) => inv.invoice_id}
          loading={invoices.isPending}
          error={invoices.isError ? errorMessage(invoices.error, 'Failed to load invoices') : null}
          onRetry={() => void invoices.refetch()}
          emptyText="No invoices found"
          minWidth={900}
        />
      </Card>

      <CreateConsoleInvoiceModal opened={createOpened} onClose={createModal.close} />
      <EmailInvoiceModal invoice={emailing} admin onClose={() => setEmailing(null)} />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title="Invoice Details" size="lg" centered>
        {viewing ? (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <Field label="Invoice Number">{viewing.invoice_number || viewing.invoice_id}</Field>
              <Field label="Organization">{viewing.organization_name || viewing.organization_id}</Field>
              <Field label="Amount">{dollars(viewing.amount)}</Field>
              <Field label="Status">
                <StatusBadge status={viewing.status} />
              </Field>
              <Field label="Due Date">{viewing.due_date ? formatDate(viewing.due_date) : 'Not set'}</Field>
              <Field label="Customer Name">{viewing.customer_name || 'Not provided'}</Field>
              <Field label="Email">{viewing.customer_email || 'Not provided'}</Field>
              <Field label="Phone">{viewing.customer_phone || 'Not provided'}</Field>
            </SimpleGrid>
            <Field label="Description">{viewing.description || 'No description provided'}</Field>
            {viewing.payment_tx_hash ? (
              <Field label="Payment reported">
                {viewing.payment_tx_hash}
                {viewing.payment_submitted_at ? ` · ${formatDate(viewing.payment_submitted_at, true)}` : ''}
              </Field>
            ) : null}
            {viewing.emailed_at ? (
              <Field label="Last emailed">
                {viewing.emailed_to} · {formatDate(viewing.emailed_at, true)}
              </Field>
            ) : null}
            <Group justify="flex-end" gap="sm">
              {viewing.status.toLowerCase() !== 'cancelled' ? (
                <Button
                  variant="light"
                  leftSection={<IconMail size={16} />}
                  onClick={() => {
                    setEmailing(viewing);
                    setViewing(null);
                  }}
                >
                  Email Invoice
                </Button>
              ) : null}
              {canMarkPaid(viewing) ? (
                <Button color="green" onClick={() => pay(viewing)} loading={markPaid.isPending}>
                  Mark as Paid
                </Button>
              ) : null}
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  setDeleting(viewing);
                  setViewing(null);
                }}
              >
                Delete Invoice
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete Invoice"
        message="Are you sure you want to delete this invoice?"
        confirmLabel="Delete Invoice"
        loading={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.invoice_id, {
            onSuccess: () => {
              feedback.success('Invoice deleted successfully');
              setDeleting(null);
            },
            onError: (e) => {
              feedback.error(`Failed to delete invoice: ${errorMessage(e)}`);
              setDeleting(null);
            },
          });
        }}
      />
    </Stack>
  );
}
