import { Badge, Button, Card, Group, Modal, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { formatMoney, Money } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import { errorMessage } from '@/lib/api-client';
import { paidBeforeHint } from '@/lib/brought-over';
import { useCustomer } from '../api/get-customer';
import { useCustomerItems } from '../api/get-customer-items';
import { useCustomerPayments } from '../api/get-customer-payments';
import { useCustomerStatus } from '../api/get-customer-status';
import type { Customer, CustomerItem, CustomerPayment } from '../api/types';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children || '—'}
      </Text>
    </Stack>
  );
}

function Figure({ label, value, loading, hint }: { label: string; value: ReactNode; loading: boolean; hint?: ReactNode }) {
  return (
    <Card padding="sm" radius="md">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      {loading ? <Skeleton h={24} mt={6} w="70%" /> : <Text fw={700} size="lg" mt={4}>{value}</Text>}
      {hint && !loading ? (
        <Text size="xs" c="dimmed" mt={2}>
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}

const itemColumns: Column<CustomerItem>[] = [
  {
    key: 'serial',
    header: 'Serial Number',
    render: (i) => (
      <Stack gap={0}>
        <Text size="sm" ff="monospace">
          {i.serial_number}
        </Text>
        <Text size="xs" c="dimmed">
          {i.product_name}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    render: (i) => (
      <Badge variant="light" color={i.paid_off ? 'green' : i.status === 'assigned' ? 'blue' : 'gray'}>
        {i.paid_off ? 'Paid off' : i.status}
      </Badge>
    ),
  },
];

const paymentColumns: Column<CustomerPayment>[] = [
  { key: 'amount', header: 'Amount', render: (p) => <Money amount={p.amount} currency={p.currency} size="sm" /> },
  { key: 'paid', header: 'Paid At', render: (p) => <DateText value={p.paid_at ?? p.created_at} withTime /> },
  {
    key: 'serial',
    header: 'Serial',
    render: (p) => (
      <Text size="sm" ff="monospace">
        {p.item_serial_number ?? '—'}
      </Text>
    ),
  },
  { key: 'status', header: 'Status', render: (p) => <StatusBadge kind="payment" status={p.status} /> },
];

export interface CustomerDetailsModalProps {
  /** The row clicked; null when closed. */
  customer: Customer | null;
  onClose: () => void;
  onEdit: (customer: Customer) => void;
}

/** Everything known about one customer: profile, totals, devices and payments (spec §2). */
export function CustomerDetailsModal({ customer: row, onClose, onEdit }: CustomerDetailsModalProps) {
  const id = row?.customer_id ?? null;
  const phone = useMediaQuery('(max-width: 48em)');
  const detail = useCustomer(id, row ?? undefined);
  const items = useCustomerItems(id);
  const payments = useCustomerPayments(id);
  const status = useCustomerStatus(id);
  const customer = detail.data ?? row;
  const currency = status.data?.template?.currency ?? payments.data?.[0]?.currency;

  return (
    <Modal opened={row !== null} onClose={onClose} title="Customer Details" size="xl" fullScreen={phone}>
      {customer ? (
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Title order={3}>{customer.customer_name}</Title>
              <Text size="sm" c="dimmed">
                Customer #{customer.customer_id}
              </Text>
            </Stack>
            <StatusBadge kind="customer" status={customer.status} />
          </Group>

          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" verticalSpacing="sm">
            <Field label="Name">{customer.customer_name}</Field>
            <Field label="Phone">{customer.phone_contact}</Field>
            <Field label="ID Number">{customer.id_number}</Field>
            <Field label="Email">{customer.email}</Field>
            <Field label="County">{customer.county}</Field>
            <Field label="Constituency">{customer.constituency}</Field>
            <Field label="Ward">{customer.ward}</Field>
            <Field label="Village">{customer.village}</Field>
            <Field label="Occupation">{customer.occupation}</Field>
            <Field label="Status">
              <StatusBadge kind="customer" status={customer.status} />
            </Field>
            <Field label="Created">
              <DateText value={customer.created_at} withTime />
            </Field>
          </SimpleGrid>

          {status.isError ? (
            <Text size="sm" c="red" role="alert">
              {errorMessage(status.error, 'Failed to load the payment totals')}
            </Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <Figure
              label="Total Paid"
              loading={status.isPending}
              value={formatMoney(status.data?.total_paid, currency)}
              hint={status.data && Number(status.data.paid_before) > 0 ? paidBeforeHint(status.data.paid_before, currency) : undefined}
            />
            <Figure label="Payments" loading={status.isPending} value={status.data?.payments_count ?? 0} />
            {/* Spec §2: "Remaining Balance (always a dash)". The balance per device is on the payment details page. */}
            <Figure label="Remaining Balance" loading={false} value="—" />
          </SimpleGrid>

          <Stack gap="xs">
            <Title order={5}>Assigned Items</Title>
            <DataTable
              caption="Assigned items"
              columns={itemColumns}
              rows={items.data}
              rowKey={(i) => i.serial_number}
              loading={items.isPending}
              error={items.isError ? errorMessage(items.error, 'Failed to load items') : null}
              onRetry={() => void items.refetch()}
              emptyText="No items assigned."
              minWidth={320}
            />
          </Stack>

          <Stack gap="xs">
            <Title order={5}>Payments</Title>
            <DataTable
              caption="Payments"
              columns={paymentColumns}
              rows={payments.data}
              rowKey={(p) => p.payment_id}
              loading={payments.isPending}
              error={payments.isError ? errorMessage(payments.error, 'Failed to load payments') : null}
              onRetry={() => void payments.refetch()}
              emptyText="No payments found."
              minWidth={420}
            />
          </Stack>

          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            {customer.status === 'erased' ? null : <Button onClick={() => onEdit(customer)}>Edit</Button>}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
