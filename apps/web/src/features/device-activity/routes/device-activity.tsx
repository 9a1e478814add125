import type { DeviceDiscount } from '@kidogo/contracts';
import { Badge, Button, Card, Center, Group, Loader, Tabs } from '@mantine/core';
import { IconArrowLeft, IconArrowsExchange, IconCash, IconDiscount, IconKey, IconLock, IconMessages, IconRefresh, IconUserShare } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { PageError } from '@/components/ui/page-error';
import { PaginationControl } from '@/components/ui/pagination-control';
import { paths } from '@/config/paths';
import { RecordPaymentButton } from '@/features/record-payment/components/record-payment-modal';
import { AgreementMenu } from '@/features/device-agreement/agreement-menu';
import { DeviceSwapsCard } from '@/features/device-swaps/components/device-swaps-card';
import { AskToPayButton } from '@/features/mpesa-express/components/ask-to-pay-modal';
import { PaymentRequestsCard } from '@/features/mpesa-express/components/payment-requests-card';
import { MoveDeviceButton } from '@/features/stock/components/move-device-button';
import { StockMovementsCard } from '@/features/stock/components/stock-movements-card';
import { DeviceTicketsCard } from '@/features/tickets/components/device-tickets-card';
import type { TokenReply } from '@/features/tokens/api/types';
import { GenerateTokenModal } from '@/features/tokens/components/generate-token-modal';
import { TokenResultModal } from '@/features/tokens/components/token-result-modal';
import { errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { managesOrganization, useSession } from '@/lib/session';
import { ACTIVITY_PAGE_SIZE, useDeviceActivity, type DeviceActivityView } from '../api/get-device-activity';
import { DeviceInfoCard } from '../components/device-info-card';
import { DiscountModal } from '../components/discount-modal';
import { DiscountsCard } from '../components/discounts-card';
import { VoidDiscountModal } from '../components/void-discount-modal';
import { MessageHistoryTable, PaymentHistoryTable, TokenHistoryTable } from '../components/history-tables';
import { RepossessModal } from '../components/repossess-modal';
import { ReversePaymentModal } from '../components/reverse-payment-modal';
import { SwapModal } from '../components/swap-modal';
import { TransferModal } from '../components/transfer-modal';
import type { PaymentHistoryEntry } from '../api/types';

type Tab = 'tokens' | 'payments' | 'messages';

/** The currency a discount is given in when the device's plan names none (nor the organization's payments). */
const FALLBACK_CURRENCY = 'KES';

/** Something is left to pay on a device someone has, not paid off: a discount can come off it. */
const canDiscount = (device: DeviceActivityView['device'] | undefined) =>
  Boolean(device?.is_assigned) &&
  device?.repayment?.standing !== 'paid_off' &&
  device?.remaining !== undefined &&
  device.remaining !== null &&
  Number(device.remaining) > 0;

const backButton = (
  <Button component={Link} to={paths.app.products.getHref()} variant="default" leftSection={<IconArrowLeft size={16} />}>
    Back to Products
  </Button>
);

function TabLabel({ children, count }: { children: ReactNode; count: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      {children}
      <Badge miw="max-content" size="sm" variant="light" radius="sm" aria-label={`${count} entries`}>
        {count}
      </Badge>
    </Group>
  );
}

/** One tab's page: page 1 comes with the screen's first load; other pages are fetched when asked for. */
function HistoryTab({ serial, tab, first }: { serial: string; tab: Tab; first: DeviceActivityView }) {
  const [page, setPage] = useState(1);
  const { user } = useSession();
  const canReverse = managesOrganization(user);
  const [reversing, setReversing] = useState<PaymentHistoryEntry | null>(null);
  const paged = useDeviceActivity(serial, page);
  const view = page === 1 ? (paged.data ?? first) : paged.data;
  const common = {
    loading: page !== 1 && paged.isPending,
    error: page !== 1 && paged.isError ? errorMessage(paged.error, 'Failed to fetch device activity') : null,
    onRetry: () => void paged.refetch(),
  };
  const total = view ? view[tab].total : first[tab].total;
  return (
    <>
      {tab === 'tokens' ? <TokenHistoryTable rows={view?.tokens.items} {...common} /> : null}
      {tab === 'payments' ? (
        <>
          <PaymentHistoryTable rows={view?.payments.items} {...common} onReverse={canReverse ? setReversing : undefined} />
          <ReversePaymentModal serialNumber={serial} payment={reversing} onClose={() => setReversing(null)} />
        </>
      ) : null}
      {tab === 'messages' ? <MessageHistoryTable rows={view?.messages.items} {...common} /> : null}
      <PaginationControl page={page} total={total} pageSize={ACTIVITY_PAGE_SIZE} onPageChange={setPage} itemLabel="entries" />
    </>
  );
}

/** Device Activity: what happened to one device — tokens, payments and messages — its service tickets, its Ask to Pay requests (M-Pesa Express, MTN MoMo, Airtel Money) and its moves between stock locations. */
export default function DeviceActivityRoute() {
  const { serialNumber = '' } = useParams();
  const [tab, setTab] = useState<Tab>('tokens');
  const activity = useDeviceActivity(serialNumber, 1);
  const currency = useOrganizationCurrency();
  const [generating, setGenerating] = useState(false);
  const [token, setToken] = useState<TokenReply | null>(null);
  const [repossessing, setRepossessing] = useState(false);
  const [swapping, setSwapping] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [discounting, setDiscounting] = useState(false);
  const [voidingDiscount, setVoidingDiscount] = useState<DeviceDiscount | null>(null);
  const { user } = useSession();
  const manages = managesOrganization(user);
  const device = activity.data?.device;
  // What is left to pay is in the currency of the device's plan.
  const planCurrency = device?.payment_plan?.currency ?? currency ?? FALLBACK_CURRENCY;

  const header = (
    <PageHeader
      title="Device Activity"
      subtitle={`Serial number ${serialNumber}`}
      actions={
        <>
          {backButton}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void activity.refetch()}
            loading={activity.isFetching && !activity.isPending}
          >
            Refresh
          </Button>
          <Button variant="default" leftSection={<IconKey size={16} />} onClick={() => setGenerating(true)}>
            Generate Token
          </Button>
          <RecordPaymentButton target={{ serialNumber }} currency={currency} />
          {/* M-Pesa, MTN MoMo or Airtel Money prompts the customer's phone: only a device someone has can be paid for this way. */}
          {device?.is_assigned && device.customer_id ? (
            <AskToPayButton
              target={{
                serialNumber,
                customerId: device.customer_id,
                customerName: device.customer_name ?? 'the customer',
                dailyPrice: device.payment_plan?.daily_price ?? null,
                currency: device.payment_plan?.currency ?? null,
              }}
            />
          ) : null}
          {device?.is_assigned ? <AgreementMenu serialNumber={serialNumber} /> : null}
          {/* Only a device in stock moves between places: one given out is with its customer. */}
          {device && !device.is_assigned ? <MoveDeviceButton serialNumber={device.serial_number || serialNumber} /> : null}
          {manages && device?.is_assigned ? (
            <Button variant="default" leftSection={<IconArrowsExchange size={16} />} onClick={() => setSwapping(true)}>
              Swap Device
            </Button>
          ) : null}
          {/* Another customer takes over the payments of a device someone has (its holder died, moved away or sold it on). */}
          {manages && device?.is_assigned ? (
            <Button variant="default" leftSection={<IconUserShare size={16} />} onClick={() => setTransferring(true)}>
              Transfer Account
            </Button>
          ) : null}
          {manages && canDiscount(device) ? (
            <Button variant="default" leftSection={<IconDiscount size={16} />} onClick={() => setDiscounting(true)}>
              Give Discount
            </Button>
          ) : null}
          {manages && device?.is_assigned ? (
            <Button variant="default" color="red" leftSection={<IconLock size={16} />} onClick={() => setRepossessing(true)}>
              Repossess
            </Button>
          ) : null}
          <SwapModal
            serialNumber={serialNumber}
            customerName={device?.customer_name ?? null}
            locationName={device?.location_name ?? null}
            warranty={device?.warranty ?? null}
            currency={device?.payment_plan?.currency ?? currency}
            opened={swapping}
            onClose={() => {
              setSwapping(false);
              void activity.refetch();
            }}
          />
          <TransferModal
            account={{
              serialNumber: device?.serial_number || serialNumber,
              customerId: device?.customer_id ?? null,
              customerName: device?.customer_name ?? null,
              totalPaid: device?.total_paid ?? null,
              creditUntil: device?.credit_until ?? null,
              plan: device?.payment_plan ?? null,
            }}
            currency={currency}
            opened={transferring}
            onClose={() => {
              setTransferring(false);
              void activity.refetch();
            }}
          />
          <DiscountModal
            serialNumber={serialNumber}
            customerName={device?.customer_name ?? null}
            remaining={device?.remaining ?? null}
            currency={planCurrency}
            opened={discounting}
            onClose={() => {
              setDiscounting(false);
              void activity.refetch();
            }}
          />
          <RepossessModal
            serialNumber={serialNumber}
            customerName={device?.customer_name ?? null}
            locationName={device?.location_name ?? null}
            currency={currency}
            opened={repossessing}
            onClose={() => {
              setRepossessing(false);
              void activity.refetch();
            }}
          />
          <GenerateTokenModal
            key={serialNumber}
            serialNumber={serialNumber}
            opened={generating}
            onClose={() => setGenerating(false)}
            onGenerated={(reply) => {
              setToken(reply);
              void activity.refetch();
            }}
          />
          <TokenResultModal token={token} onClose={() => setToken(null)} />
        </>
      }
    />
  );

  if (activity.isPending) {
    return (
      <>
        {header}
        <Center py="xl" role="status" aria-label="Loading">
          <Loader />
        </Center>
      </>
    );
  }
  if (activity.isError) {
    return (
      <>
        <PageHeader title="Device Activity" subtitle={`Serial number ${serialNumber}`} />
        <PageError
          title="Could not load device activity"
          message={errorMessage(activity.error, 'Failed to fetch device activity')}
          onRetry={() => void activity.refetch()}
          retrying={activity.isFetching}
          actions={backButton}
        />
      </>
    );
  }

  const data = activity.data;
  return (
    <>
      {header}
      <DeviceInfoCard device={data.device} />
      <DeviceTicketsCard serialNumber={data.device.serial_number || serialNumber} />
      <DeviceSwapsCard serialNumber={data.device.serial_number || serialNumber} />
      <DiscountsCard
        serialNumber={data.device.serial_number || serialNumber}
        currency={planCurrency}
        // A paid-off device keeps its discounts: its unlock code cannot be taken back.
        onVoid={manages && data.device.repayment?.standing !== 'paid_off' ? setVoidingDiscount : undefined}
      />
      <VoidDiscountModal discount={voidingDiscount} onClose={() => setVoidingDiscount(null)} />
      <Card padding="md" radius="md">
        <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="tokens" leftSection={<IconKey size={16} />}>
              <TabLabel count={data.tokens.total}>Token History</TabLabel>
            </Tabs.Tab>
            <Tabs.Tab value="payments" leftSection={<IconCash size={16} />}>
              <TabLabel count={data.payments.total}>Payment History</TabLabel>
            </Tabs.Tab>
            <Tabs.Tab value="messages" leftSection={<IconMessages size={16} />}>
              <TabLabel count={data.messages.total}>Message History</TabLabel>
            </Tabs.Tab>
          </Tabs.List>
          {(['tokens', 'payments', 'messages'] as const).map((t) => (
            <Tabs.Panel key={t} value={t}>
              <HistoryTab serial={serialNumber} tab={t} first={data} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>
      <PaymentRequestsCard serialNumber={data.device.serial_number || serialNumber} />
      <StockMovementsCard serialNumber={data.device.serial_number || serialNumber} />
    </>
  );
}
