import { Alert, Anchor, Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCash, IconCoins, IconDownload, IconInfoCircle, IconRefresh, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { formatMoney } from '@/components/ui/money';
import { PageError } from '@/components/ui/page-error';
import { paths, SETTINGS_CARDS } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { managesOrganization, useSession } from '@/lib/session';
import { useExportCommissions } from '../api/export-commissions';
import { useCommissionMonth } from '../api/get-commission-month';
import type { CommissionAgent, CommissionMonth, CommissionPayout } from '../api/types';
import { CommissionAgentsTable } from '../components/commission-agents-table';
import { CommissionTotals } from '../components/commission-totals';
import { MarkPaidModal } from '../components/mark-paid-modal';
import { MonthPicker } from '../components/month-picker';
import { PayAllModal } from '../components/pay-all-modal';
import { dayAfter, isMonth, monthLabel, monthOf, shiftMonth } from '../components/months';
import { PayoutHistoryDrawer } from '../components/payout-history-drawer';
import { VoidPayoutModal } from '../components/void-payout-modal';
import { VoidedPayouts } from '../components/voided-payouts';

export const LOAD_FAILED = "Failed to load the month's commissions";

const TITLE = 'Agent Commissions';
const SUBTITLE = 'What each sales agent earned in a month, from Settings → Agent Commissions, and whether it was paid.';

const isZero = (money: string) => Number(money) === 0;

/** Reckoned more than 10 seconds ago: the API kept a large organization's slow month (up to a minute). */
const isOld = (at: string) => Date.now() - Date.parse(at) > 10_000;
const timeOf = (at: string) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** "KES 500.00 per device given and 2.50% of the payments collected". */
function settingsText(m: CommissionMonth, currency: string | null): string {
  const parts = [
    ...(isZero(m.per_device) ? [] : [`${formatMoney(m.per_device, currency)} per device given`]),
    ...(isZero(m.percent) ? [] : [`${Number(m.percent)}% of the payments collected`]),
  ];
  return parts.join(' and ');
}

/** Why the month cannot be paid yet, or is paid nothing: it is not over, or no commission is set. */
function MonthAlerts({ month }: { month: CommissionMonth }) {
  return (
    <>
      {month.closed ? null : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} mb="lg">
          This month is not over yet: its commissions can be paid from {dayAfter(month.month)}.
        </Alert>
      )}
      {isZero(month.per_device) && isZero(month.percent) ? (
        <Alert color="yellow" variant="light" icon={<IconSettings size={18} />} mb="lg">
          No agent commissions are set: owners and admins set them in{' '}
          <Anchor component={Link} to={paths.app.settings.getHref(SETTINGS_CARDS.agentCommissions)} inherit>
            Settings, Agent Commissions
          </Anchor>
          .
        </Alert>
      ) : null}
    </>
  );
}

/**
 * Agent Commissions (owners and admins): each sales agent's commission for a
 * month (reckoned with Settings → Agent Commissions, as the Agent report
 * does), and whether it was paid. Once the month is over it is paid and
 * recorded here, a payout recorded by mistake voided with why. Staff are
 * refused by the API; the page says so instead of failing.
 */
export default function CommissionsRoute() {
  const { user } = useSession();
  if (user && !managesOrganization(user)) {
    return (
      <>
        <PageHeader title={TITLE} />
        <PageError title="Not available" message="Only owners and admins can see and pay agent commissions." />
      </>
    );
  }
  return <Commissions />;
}

function Commissions() {
  const latest = monthOf(useBusinessToday());
  // The month and the agent whose history is open are in the address (?month=2026-11&agent=baraka); the month
  // usually paid, the last one, by default.
  const [params, setParams] = useSearchParams();
  const asked = params.get('month');
  const month = isMonth(asked) ? asked : shiftMonth(latest, -1);
  const historyOf = params.get('agent');
  const setMonth = (next: string) => setParams({ month: next }, { replace: true });
  const onHistory = (agent: string | null) => setParams(agent ? { month, agent } : { month }, { replace: agent === null });

  const commissions = useCommissionMonth(month);
  const currency = useOrganizationCurrency();
  const exporter = useExportCommissions();
  const [paying, setPaying] = useState<CommissionAgent | null>(null);
  const [voiding, setVoiding] = useState<CommissionPayout | null>(null);
  const [payingAll, setPayingAll] = useState(false);
  const shown = commissions.data;
  const settings = shown ? settingsText(shown, currency) : '';

  return (
    <>
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          <Group gap="sm">
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => exporter.mutate(month)} loading={exporter.isPending}>
              Download CSV
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void commissions.refetch()}
              loading={commissions.isFetching && !commissions.isPending}
            >
              Refresh
            </Button>
          </Group>
        }
      />
      <Group mb="lg" justify="space-between">
        <MonthPicker value={month} latest={latest} onChange={setMonth} />
        {/* Once the month is over and someone is still owed: a bank's bulk transfer pays them all at once. */}
        {shown?.closed && shown.totals.unpaid_count > 0 ? (
          <Button leftSection={<IconCash size={16} />} onClick={() => setPayingAll(true)}>
            Pay All Owed
          </Button>
        ) : null}
      </Group>
      {shown ? <MonthAlerts month={shown} /> : null}
      {commissions.isPending || (shown && shown.data.length > 0) ? <CommissionTotals month={shown} currency={currency} loading={commissions.isPending} /> : null}
      <Card padding="lg" radius="md" role="region" aria-label="By agent">
        <Group gap="sm" mb="md" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconCoins size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>By agent: {monthLabel(month)}</Title>
            <Text size="sm" c="dimmed">
              The most commission first{settings ? `, reckoned at ${settings}` : ''}. Click an agent for what they were paid in every month.
              {shown && isOld(shown.reckoned_at) ? ` Reckoned at ${timeOf(shown.reckoned_at)}: a large organization's month is worked out again after a minute.` : ''}
            </Text>
          </div>
        </Group>
        <CommissionAgentsTable
          rows={shown?.data}
          currency={currency}
          loading={commissions.isPending}
          error={commissions.isError ? errorMessage(commissions.error, LOAD_FAILED) : null}
          onRetry={() => void commissions.refetch()}
          emptyText={`No agent gave a device or collected a payment in ${monthLabel(month)}.`}
          actions={{ payable: shown?.closed ?? false, onHistory, onMarkPaid: setPaying, onVoid: (r) => setVoiding(r.payout) }}
        />
      </Card>
      {shown ? <VoidedPayouts payouts={shown.voided} currency={currency} /> : null}
      <PayoutHistoryDrawer agent={historyOf} currency={currency} onClose={() => onHistory(null)} />
      <MarkPaidModal row={paying} month={month} currency={currency} onClose={() => setPaying(null)} />
      <VoidPayoutModal payout={voiding} currency={currency} onClose={() => setVoiding(null)} />
      <PayAllModal month={shown} currency={currency} opened={payingAll} onClose={() => setPayingAll(false)} />
    </>
  );
}
