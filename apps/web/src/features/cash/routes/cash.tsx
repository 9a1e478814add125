import { Alert, Button, Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFileExport, IconInfoCircle, IconRefresh, IconWallet } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { errorMessage } from '@/lib/api-client';
import { managesOrganization, useSession } from '@/lib/session';
import { useCashSummary } from '../api/get-cash-summary';
import { CASH_OVERDUE_DAYS } from '../api/types';
import { CashTotals } from '../components/cash-totals';
import type { LedgerTarget } from '../components/cash-ledger-drawer';
import { CollectorsTable } from '../components/collectors-table';
import { ExportHandoversModal } from '../components/export-handovers-modal';

export const LOAD_FAILED = 'Failed to load the cash in hand';

const SUBTITLE = 'Cash payments recorded by each user, what they have handed over and what they hold now.';
export const STAFF_NOTE = 'Hand the cash you collect to an owner or admin; they record it here.';

/**
 * Cash in Hand: the cash each user collected from customers (payments they
 * recorded as cash) and has not handed over to the office yet, who has held
 * it too long, and each one's ledger. Owners and admins record the handovers;
 * staff see their own cash (the API lists only theirs).
 */
export default function CashRoute() {
  const { user } = useSession();
  const manage = managesOrganization(user);
  const summary = useCashSummary();
  const overdueDays = summary.data?.overdue_days ?? CASH_OVERDUE_DAYS;
  const [exporting, setExporting] = useState(false);
  // The open ledger is in the address (?ledger=baraka&currency=UGX): a notification of cash held too long opens it, Back closes it.
  const [params, setParams] = useSearchParams();
  const ledgerUser = params.get('ledger');
  const ledgerOf: LedgerTarget | null = ledgerUser ? { username: ledgerUser, currency: params.get('currency') ?? undefined } : null;
  const onLedger = (t: LedgerTarget | null) =>
    setParams(t ? { ledger: t.username, ...(t.currency ? { currency: t.currency } : {}) } : {}, { replace: t === null });
  return (
    <>
      <PageHeader
        title="Cash in Hand"
        subtitle={SUBTITLE}
        actions={
          <Group gap="sm">
            {manage ? (
              <Button variant="default" leftSection={<IconFileExport size={16} />} onClick={() => setExporting(true)}>
                Export Handovers
              </Button>
            ) : null}
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void summary.refetch()} loading={summary.isFetching && !summary.isPending}>
              Refresh
            </Button>
          </Group>
        }
      />
      {manage ? null : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} mb="lg">
          {STAFF_NOTE}
        </Alert>
      )}
      <CashTotals summary={summary.data} loading={summary.isPending} />
      <Card padding="lg" radius="md" role="region" aria-label="By user">
        <Group gap="sm" mb="md" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconWallet size={22} />
          </ThemeIcon>
          <div>
            <Title order={4}>{manage ? 'By user' : 'Your cash'}</Title>
            <Text size="sm" c="dimmed">
              The most in hand first. Cash held more than {overdueDays} days is overdue for handing over.
            </Text>
          </div>
        </Group>
        <CollectorsTable
          rows={summary.data?.data}
          manage={manage}
          loading={summary.isPending}
          error={summary.isError ? errorMessage(summary.error, LOAD_FAILED) : null}
          onRetry={() => void summary.refetch()}
          ledgerOf={ledgerOf}
          onLedger={onLedger}
        />
      </Card>
      {manage ? <ExportHandoversModal opened={exporting} collectors={(summary.data?.data ?? []).map((c) => c.username)} onClose={() => setExporting(false)} /> : null}
    </>
  );
}
