import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { CustomerDeviceStatus } from '@kidogo/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { paths } from '@/config/paths';
import { AgreementMenu } from '@/features/device-agreement/agreement-menu';
import { AskToPayAction, AskToPayModal, type AskToPayTarget } from '@/features/mpesa-express/components/ask-to-pay-modal';
import { RepaymentCell } from './repayment-standing';

const columns = (currency: string): Column<CustomerDeviceStatus>[] => [
  {
    key: 'serial',
    header: 'Serial Number',
    render: (d) => (
      <Stack gap={0}>
        <Anchor component={Link} to={paths.app.deviceActivity.getHref(d.serial_number)} size="sm" ff="monospace" fw={600}>
          {d.serial_number}
        </Anchor>
        <Text size="xs" c="dimmed">
          {d.product_name}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'plan',
    header: 'Payment Plan',
    render: (d) =>
      d.payment_plan ? (
        <Group gap={6} wrap="wrap">
          <Text size="sm">
            {d.payment_plan.template_name} · {formatMoney(d.payment_plan.daily_price, d.payment_plan.currency)}/day
          </Text>
          {d.payment_plan.own ? (
            <Badge miw="max-content" variant="light" color="violet" radius="sm">
              This device only
            </Badge>
          ) : null}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ),
  },
  { key: 'paid', header: 'Total Paid', align: 'right', render: (d) => formatMoney(d.total_paid, d.payment_plan?.currency ?? currency) },
  {
    key: 'remaining',
    header: 'Remaining',
    align: 'right',
    render: (d) => (d.remaining === null ? '—' : formatMoney(d.remaining, d.payment_plan?.currency ?? currency)),
  },
  { key: 'standing', header: 'Standing', render: (d) => <RepaymentCell repayment={d.repayment} /> },
  {
    key: 'credit',
    header: 'Credit',
    render: (d) =>
      d.paid_off ? (
        <Badge miw="max-content" color="green" variant="light" radius="sm">
          Paid off
        </Badge>
      ) : d.days_left > 0 && d.credit_until ? (
        <Text size="sm">
          {d.days_left} {d.days_left === 1 ? 'day' : 'days'} · until {formatDate(d.credit_until, true)}
        </Text>
      ) : d.credit_until === null ? (
        <Text size="sm" c="dimmed">
          No days bought yet
        </Text>
      ) : (
        <Badge miw="max-content" color="red" variant="light" radius="sm">
          Out of credit
        </Badge>
      ),
  },
];

/** The agreement to print, for a device on a plan with a price to own it. */
const agreementColumn: Column<CustomerDeviceStatus> = {
  key: 'agreement',
  header: 'Agreement',
  align: 'right',
  render: (d) => (d.payment_plan && d.payoff_price !== null ? <AgreementMenu serialNumber={d.serial_number} size="compact-sm" /> : null),
};

/** The customer a Devices card belongs to, for Ask to Pay on each device not paid off. */
export interface DevicesCardCustomer {
  customerId: number;
  customerName: string;
  phone: string | null;
}

/** Ask to Pay, for a device not paid off: what the row knows of its plan and what is left helps choose the amount. */
const askColumn = (customer: DevicesCardCustomer, currency: string, onAsk: (t: AskToPayTarget) => void): Column<CustomerDeviceStatus> => ({
  key: 'ask',
  header: 'Ask to Pay',
  align: 'right',
  render: (d) =>
    d.paid_off ? null : (
      <AskToPayAction
        target={{
          serialNumber: d.serial_number,
          customerId: customer.customerId,
          customerName: customer.customerName,
          phone: customer.phone,
          dailyPrice: d.payment_plan?.daily_price ?? null,
          remaining: d.remaining,
          currency: d.payment_plan?.currency ?? currency,
        }}
        onAsk={onAsk}
      />
    ),
});

/**
 * The customer's devices, each with the plan it is paid on (its own or the
 * customer's) and where it stands; `agreements` adds each one's agreement to
 * print (not for a customer whose personal data was erased), and `customer`
 * Ask to Pay on each device not paid off.
 */
export function DevicesCard({
  devices,
  currency,
  agreements = false,
  customer,
}: {
  devices: CustomerDeviceStatus[];
  currency: string;
  agreements?: boolean;
  customer?: DevicesCardCustomer;
}) {
  const [asking, setAsking] = useState<AskToPayTarget | null>(null);
  const shown = agreements && devices.some((d) => d.payment_plan && d.payoff_price !== null) ? [...columns(currency), agreementColumn] : columns(currency);
  if (customer && devices.some((d) => !d.paid_off)) shown.push(askColumn(customer, currency, setAsking));
  return (
    <Card padding="md" radius="md" mb="lg" role="region" aria-label="Devices">
      <Title order={4} mb="sm">
        Devices
      </Title>
      <DataTable caption="Devices" columns={shown} rows={devices} rowKey={(d) => d.serial_number} emptyText="No items assigned." />
      <AskToPayModal target={asking} onClose={() => setAsking(null)} />
    </Card>
  );
}
