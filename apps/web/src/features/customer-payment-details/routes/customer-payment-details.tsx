import { Anchor, Badge, Button, Card, Center, Group, Loader, Progress, SimpleGrid, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCash, IconChartDonut, IconLink, IconMessage, IconMessageOff, IconReceipt, IconUser, IconWallet } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { formatMoney, Money } from '@/components/ui/money';
import { PageError } from '@/components/ui/page-error';
import { StatCard, StatMoney } from '@/components/ui/stat-card';
import { paths } from '@/config/paths';
import { DocumentsCard } from '@/features/customer-documents/components/documents-card';
import { isErased, PersonalDataCard } from '@/features/customer-privacy/components/personal-data-card';
import { OPTED_OUT_HINT, SendSmsModal, type SmsTarget } from '@/features/customer-sms/components/send-sms-modal';
import { SmsOptOutControl } from '@/features/customer-sms/components/sms-opt-out-control';
import { ReversePaymentModal } from '@/features/device-activity/components/reverse-payment-modal';
import { DeviceSwapsCard } from '@/features/device-swaps/components/device-swaps-card';
import { CustomerUssdSessionsCard } from '@/features/ussd/components/ussd-sessions';
import { DiscountsCard } from '@/features/device-activity/components/discounts-card';
import { RecordPaymentButton } from '@/features/record-payment/components/record-payment-modal';
import { PaymentRequestsCard } from '@/features/mpesa-express/components/payment-requests-card';
import { TicketsCard } from '@/features/tickets/components/tickets-card';
import { errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { managesOrganization, useSession } from '@/lib/session';
import { clampProgress, FAILED_TEXT, paidTowardsPayoff, usePaymentDetails } from '../api/get-payment-details';
import type { PaymentHistoryEntry } from '../api/types';
import { DevicesCard } from '../components/devices-card';
import { RepaymentSummary } from '../components/repayment-standing';
import { FollowOnLine } from '@/features/credit-check/components/follow-on-line';
import { StatementMenu } from '../components/statement-menu';
import { PortalLinkModal, type PortalTarget } from '@/features/customer-portal/components/portal-link-modal';
import { paidBeforeHint } from '@/lib/brought-over';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ wordBreak: 'break-word' }}>
        {children || '—'}
      </Text>
    </Stack>
  );
}

const statusColor = (s: string) => {
  const v = s.toLowerCase();
  return v === 'completed' || v === 'success' ? 'green' : v === 'failed' ? 'red' : 'yellow';
};

/** Customer Payment Details: how far a customer is towards owning their device. */
export default function CustomerPaymentDetailsRoute() {
  const { customerId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const details = usePaymentDetails(customerId);
  const orgCurrency = useOrganizationCurrency();
  const { user } = useSession();
  const manages = managesOrganization(user);
  const [reversing, setReversing] = useState<PaymentHistoryEntry | null>(null);
  const [texting, setTexting] = useState<SmsTarget | null>(null);
  const [sharing, setSharing] = useState<PortalTarget | null>(null);

  // Back where the user came from; a deep link goes to the customers list.
  const goBack = () => (location.key !== 'default' ? navigate(-1) : navigate(paths.app.customers.getHref()));
  const back = (
    <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack}>
      Back
    </Button>
  );

  if (details.isPending) {
    return (
      <>
        <PageHeader title="Customer Payment Details" actions={back} />
        <Center py="xl" role="status" aria-label="Loading">
          <Loader />
        </Center>
      </>
    );
  }
  if (details.isError) {
    return (
      <>
        <PageHeader title="Customer Payment Details" />
        <PageError
          title="Could not load payment details"
          message={errorMessage(details.error, FAILED_TEXT)}
          onRetry={() => void details.refetch()}
          retrying={details.isFetching}
          actions={back}
        />
      </>
    );
  }

  const { customer_info: customer, payment_summary: summary, payment_template: template, payment_history: history } = details.data;
  // The plan's currency (KES when a template has none, spec §9), else what the organization is paid in.
  const currency = template ? template.currency || 'KES' : orgCurrency;
  const progress = clampProgress(Number(summary.payment_progress));
  // Nobody left to text or take money from: the record stays for the books.
  const erased = isErased(customer);
  const columns: Column<PaymentHistoryEntry>[] = [
    { key: 'id', header: 'Payment ID', render: (p) => `#${p.payment_id}` },
    { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Money amount={p.amount} currency={currency} size="sm" fw={600} /> },
    { key: 'paid', header: 'Paid At', render: (p) => <DateText value={p.paid_at} withTime /> },
    {
      key: 'status',
      header: 'Status',
      render: (p) => (
        <Badge miw="max-content" color={statusColor(p.status ?? '')} variant="light" radius="sm">
          {p.status ? p.status.charAt(0).toUpperCase() + p.status.slice(1) : 'Pending'}
        </Badge>
      ),
    },
    { key: 'serial', header: 'Device', render: (p) => p.device_serial || '—' },
    { key: 'code', header: 'Transaction Code', render: (p) => (p.transaction_code ? <Text size="sm" ff="monospace">{p.transaction_code}</Text> : '—') },
  ];
  if (manages) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (p) =>
        p.status === 'completed' || p.status === 'success' ? (
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => setReversing(p)} aria-label={`Reverse payment #${p.payment_id}`}>
            Reverse
          </Button>
        ) : null,
    });
  }

  return (
    <>
      <PageHeader
        title="Customer Payment Details"
        subtitle={customer.customer_name}
        actions={
          <>
            {back}
            {erased ? null : customer.sms_opted_out_at ? (
              <Tooltip label={OPTED_OUT_HINT} withArrow>
                <Button variant="default" leftSection={<IconMessageOff size={16} />} data-disabled onClick={(e) => e.preventDefault()}>
                  Send SMS
                </Button>
              </Tooltip>
            ) : (
              <Button
                variant="default"
                leftSection={<IconMessage size={16} />}
                onClick={() =>
                  setTexting({ customerId: customer.customer_id, customerName: customer.customer_name, phone: customer.phone_contact, serialNumber: customer.device_serial })
                }
              >
                Send SMS
              </Button>
            )}
            <StatementMenu customerId={customer.customer_id} />
            {erased ? null : (
              <Button
                variant="default"
                leftSection={<IconLink size={16} />}
                onClick={() =>
                  setSharing({ customerId: customer.customer_id, customerName: customer.customer_name, optedOut: customer.sms_opted_out_at !== null })
                }
              >
                Customer's Page
              </Button>
            )}
            {erased ? null : (
              <RecordPaymentButton target={{ customerId: customer.customer_id, defaultSerial: customer.device_serial }} currency={currency} />
            )}
          </>
        }
      />

      <Card padding="lg" radius="md" mb="lg" role="region" aria-label="Customer Information">
        <Group gap="sm" mb="md" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconUser size={22} />
          </ThemeIcon>
          <Title order={4}>Customer Information</Title>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          <Field label="Name">{customer.customer_name}</Field>
          <Field label="Phone">{customer.phone_contact}</Field>
          <Field label="Email">{customer.email}</Field>
          <Field label="Device Serial">
            {customer.device_serial ? (
              <Anchor component={Link} to={paths.app.deviceActivity.getHref(customer.device_serial)} size="sm" ff="monospace" fw={600}>
                {customer.device_serial}
              </Anchor>
            ) : null}
          </Field>
          <Field label="Product Name">{customer.product_name}</Field>
          <Field label="Product OEM">{customer.product_oem}</Field>
          {erased ? null : (
            <Field label="Texts">
              <SmsOptOutControl customer={customer} canAllow={manages} />
            </Field>
          )}
        </SimpleGrid>
      </Card>

      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mb="lg">
        <StatCard
          label="Total Paid"
          value={<StatMoney amount={summary.total_paid} currency={currency} />}
          color="green"
          icon={<IconCash size={18} />}
          hint={Number(summary.paid_before) > 0 ? paidBeforeHint(summary.paid_before, currency) : undefined}
        />
        <StatCard label="Free Code Price" value={<StatMoney amount={summary.free_code_price} currency={currency} />} color="blue" icon={<IconReceipt size={18} />} />
        <StatCard label="Remaining Balance" value={<StatMoney amount={summary.remaining_balance} currency={currency} />} color="orange" icon={<IconWallet size={18} />} />
        <StatCard label="Progress" value={`${progress.toFixed(1)}%`} color="grape" icon={<IconChartDonut size={18} />} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mb="lg">
        <Card padding="lg" radius="md" role="region" aria-label="Payment Progress">
          <Group justify="space-between" mb="sm">
            <Title order={4}>Payment Progress</Title>
            {summary.is_fully_paid ? (
              <Badge miw="max-content" color="green" size="lg" variant="filled">
                Fully Paid!
              </Badge>
            ) : null}
          </Group>
          <Progress
            value={progress}
            size="xl"
            radius="xl"
            color={summary.is_fully_paid ? 'green' : 'kidogo'}
            aria-label="Payment progress"
            striped={!summary.is_fully_paid}
          />
          <Group justify="space-between" mt="xs">
            <Text size="sm" c="dimmed">
              {formatMoney(paidTowardsPayoff(summary), currency)} of {formatMoney(summary.free_code_price, currency)}
            </Text>
            <Text size="sm" fw={600}>
              {progress.toFixed(1)}%
            </Text>
          </Group>
          {details.data.repayment ? <RepaymentSummary repayment={details.data.repayment} currency={currency ?? 'KES'} /> : null}
          {erased ? null : <FollowOnLine customerId={customer.customer_id} />}
        </Card>
        <Card padding="lg" radius="md" role="region" aria-label="Payment Template">
          <Title order={4} mb="sm">
            Payment Template
          </Title>
          {template ? (
            <SimpleGrid cols={2} spacing="md">
              <Field label="Name">{template.template_name}</Field>
              <Field label="Daily Price">{formatMoney(template.daily_price, currency)}</Field>
              <Field label="Activation Price">{formatMoney(template.activation_price, currency)}</Field>
              <Field label="Grace Period">
                {template.grace_period_days} {template.grace_period_days === 1 ? 'day' : 'days'}
              </Field>
            </SimpleGrid>
          ) : (
            <Text size="sm" c="dimmed">
              No payment template assigned to this customer.
            </Text>
          )}
        </Card>
      </SimpleGrid>

      <DevicesCard
        devices={details.data.devices ?? []}
        currency={currency ?? 'KES'}
        agreements={!erased}
        customer={erased ? undefined : { customerId: customer.customer_id, customerName: customer.customer_name, phone: customer.phone_contact || null }}
      />

      <DeviceSwapsCard customerId={customer.customer_id} />

      <DiscountsCard customerId={customer.customer_id} currency={currency ?? 'KES'} />

      <CustomerUssdSessionsCard customerId={customer.customer_id} />

      {/* Its tickets stay listed for an erased customer; no new ones are opened for them. */}
      <TicketsCard customerId={customer.customer_id} customerName={customer.customer_name} devices={details.data.devices ?? []} canOpen={!erased} />

      <Card padding="md" radius="md">
        <Title order={4} mb="sm">
          Payment History
        </Title>
        <DataTable caption="Payment History" columns={columns} rows={history} rowKey={(p) => p.payment_id} emptyText="No payments found." />
        <ReversePaymentModal payment={reversing} onClose={() => setReversing(null)} />
        <SendSmsModal target={texting} onClose={() => setTexting(null)} />
        <PortalLinkModal target={sharing} onClose={() => setSharing(null)} />
      </Card>

      <PaymentRequestsCard customerId={customer.customer_id} customerName={customer.customer_name} />

      <DocumentsCard customerId={customer.customer_id} customerName={customer.customer_name} canAdd={!erased} canDelete={manages} />

      {manages ? <PersonalDataCard customer={customer} /> : null}
    </>
  );
}
