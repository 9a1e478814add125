import { Badge, Drawer, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from 'react-router-dom';
import { useState } from 'react';
import { DataTable, type Column } from '@/components/ui/data-table';
import { DateText } from '@/components/ui/date-text';
import { PaginationControl } from '@/components/ui/pagination-control';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { CAMPAIGN_TEXTS_PAGE_SIZE, useSmsCampaignTexts } from '../api/get-sms-campaign-texts';
import type { Campaign, CampaignText, CampaignTextStatus } from '../api/types';
import { CampaignStatusBadge } from './campaign-status-badge';

export const TEXTS_TITLE = 'Texts of the bulk SMS';
export const TEXTS_LOAD_FAILED = 'Failed to load the texts';

export const TEXT_STATUS: Record<CampaignTextStatus, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'yellow' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

type Filter = 'all' | CampaignTextStatus;

const EMPTY: Record<Filter, string> = {
  all: 'No texts',
  queued: 'No queued texts',
  sent: 'No sent texts',
  failed: 'No failed texts',
};

const LINK_COLOR = 'var(--mantine-primary-color-filled)';
const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;

/** How many texts each filter finds, from the bulk SMS's delivery counts: those cancelled before they went are not listed. */
export function textCounts(c: Pick<Campaign, 'recipients' | 'delivery'>): Record<Filter, number> {
  return {
    all: Math.max(0, c.recipients - c.delivery.cancelled),
    queued: c.delivery.queued,
    sent: c.delivery.sent,
    failed: c.delivery.failed,
  };
}

/** The customer of the number now, as a link to their page, the number under it; the number alone when no customer has it. */
function ToCell({ t }: { t: CampaignText }) {
  const number = t.recipient_number ?? '—';
  if (t.customer_id === null || !t.customer_name) {
    return (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {number}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text component={Link} to={paths.app.customerPaymentDetails.getHref(t.customer_id)} size="sm" fw={500} c={LINK_COLOR} style={BREAK_ANYWHERE}>
        {t.customer_name}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {number}
      </Text>
    </Stack>
  );
}

/** Queued, Sent or Failed, the tries when more than one, and why the last one failed. */
function StatusCell({ t }: { t: CampaignText }) {
  const status = TEXT_STATUS[t.status];
  return (
    <Stack gap={2} align="flex-start" maw={260}>
      <Group gap={6} wrap="nowrap">
        <Badge miw="max-content" color={status.color} variant="light" radius="sm">
          {status.label}
        </Badge>
        {t.attempts > 1 ? (
          <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t.attempts} tries
          </Text>
        ) : null}
      </Group>
      {t.error && t.status !== 'sent' ? (
        <Text size="xs" c={t.status === 'failed' ? 'red' : 'dimmed'} style={BREAK_ANYWHERE}>
          {t.status === 'failed' ? t.error : `Last try: ${t.error}`}
        </Text>
      ) : null}
    </Stack>
  );
}

const COLUMNS: Column<CampaignText>[] = [
  { key: 'to', header: 'To', render: (t) => <ToCell t={t} /> },
  {
    key: 'text',
    header: 'Text',
    render: (t) => (
      <Text size="sm" maw={360} style={{ whiteSpace: 'pre-wrap', ...BREAK_ANYWHERE }}>
        {t.text ?? '—'}
      </Text>
    ),
  },
  { key: 'status', header: 'Status', render: (t) => <StatusCell t={t} /> },
  { key: 'sent_at', header: 'Sent at', render: (t) => <DateText value={t.sent_at} withTime /> },
];

/** One bulk SMS's texts: filtered by status, a page at a time. Mounted afresh for each bulk SMS: All, page 1. */
function CampaignTexts({ campaign }: { campaign: Campaign }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const status = filter === 'all' ? undefined : filter;
  const texts = useSmsCampaignTexts(campaign, { page, limit: CAMPAIGN_TEXTS_PAGE_SIZE, status });
  const counts = textCounts(campaign);
  const filters = (['all', 'queued', 'sent', 'failed'] as const).map((f) => ({
    value: f,
    label: `${f === 'all' ? 'All' : TEXT_STATUS[f].label} (${counts[f].toLocaleString()})`,
  }));
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {campaign.audience_text}
        </Text>
        <Group gap="xs">
          <DateText value={campaign.send_at} withTime c="dimmed" />
          <CampaignStatusBadge status={campaign.status} />
        </Group>
      </Stack>
      <SegmentedControl
        aria-label="Show texts"
        data={filters}
        value={filter}
        onChange={(v) => {
          setFilter(v as Filter);
          setPage(1);
        }}
        fullWidth
      />
      <div>
        <DataTable
          caption="Texts"
          columns={COLUMNS}
          rows={texts.data?.data}
          rowKey={(t) => t.message_id}
          loading={texts.isPending}
          error={texts.isError ? errorMessage(texts.error, TEXTS_LOAD_FAILED) : null}
          onRetry={() => void texts.refetch()}
          emptyText={EMPTY[filter]}
          emptyHint={filter === 'all' ? 'Each text of the bulk SMS is listed here once it is queued.' : null}
          minWidth={720}
        />
        <PaginationControl page={page} total={texts.data?.total ?? 0} pageSize={CAMPAIGN_TEXTS_PAGE_SIZE} onPageChange={setPage} itemLabel="texts" />
      </div>
    </Stack>
  );
}

/** The texts of one bulk SMS, in the order they were queued, with what became of each: from the list's Texts button. */
export function CampaignTextsDrawer({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer opened={campaign !== null} onClose={onClose} position="right" size={phone ? '100%' : 'xl'} title={TEXTS_TITLE}>
      {campaign ? <CampaignTexts key={campaign.campaign_id} campaign={campaign} /> : null}
    </Drawer>
  );
}
