import { ActionIcon, Button, Card, Tabs, Tooltip } from '@mantine/core';
import { IconBatteryOff, IconCalendarDollar, IconDownload, IconMessages, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { COLLECTION_BUCKET_FILTERS, PROMISE_STATUS_FILTERS, zAgentFilter } from '@kidogo/contracts';
import { Navigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { useBusinessToday } from '@/lib/business-day';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useExportCollections } from '../api/export-collections';
import { COLLECTIONS_PAGE_SIZE, useCollections } from '../api/get-collections';
import { useCollectionsSummary } from '../api/get-collections-summary';
import { PROMISES_PAGE_SIZE, usePromises } from '../api/get-promises';
import { usePromisesSummary } from '../api/get-promises-summary';
import { collectionKeys } from '../api/keys';
import type { AgentFilter, CollectionBucketFilter, PromiseStatusFilter as StatusFilter } from '../api/types';
import { BucketFilter } from '../components/bucket-filter';
import { CollectionsTable } from '../components/collections-table';
import { LogContactModal, type ContactTarget } from '../components/log-contact-modal';
import { SendSmsModal, type SmsTarget } from '@/features/customer-sms/components/send-sms-modal';
import { AskToPayModal, type AskToPayTarget } from '@/features/mpesa-express/components/ask-to-pay-modal';
import { PromiseStatusFilter } from '../components/promise-status-filter';
import { PromisesTable } from '../components/promises-table';
import { TextBandModal } from '../components/text-band-modal';
import { managesOrganization, useSession } from '@/lib/session';

export const LOAD_FAILED = 'Failed to load collections';
export const PROMISES_LOAD_FAILED = 'Failed to load promises';

const VIEWS = ['out-of-credit', 'promises'] as const;
type View = (typeof VIEWS)[number];

interface ScreenParams {
  view: View;
  /** The band of Out of Credit. */
  bucket: CollectionBucketFilter;
  /** The sales agent of Out of Credit (null: every agent's). */
  agent: AgentFilter;
  /** The status of Promises to Pay. */
  status: StatusFilter;
  page: number;
}

const oneOf = <T extends string>(choices: readonly T[], value: string | null, fallback: T): T =>
  (choices as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** An agent as the API takes it (trimmed, 1 to 64 characters); anything else reads as every agent's. */
function agentOf(value: string | null): AgentFilter {
  const agent = zAgentFilter().safeParse(value ?? undefined);
  return agent.success ? (agent.data ?? null) : null;
}

/** The view, its filters and the page from the URL, so a reload or a shared link opens the same list; anything else reads as the default. */
function readParams(params: URLSearchParams): ScreenParams {
  const page = Number(params.get('page'));
  return {
    view: oneOf(VIEWS, params.get('view'), 'out-of-credit'),
    bucket: oneOf(COLLECTION_BUCKET_FILTERS, params.get('bucket'), 'all'),
    agent: agentOf(params.get('agent')),
    status: oneOf(PROMISE_STATUS_FILTERS, params.get('status'), 'all'),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Defaults stay out of the URL (/collections is Out of Credit, All, every agent, page 1), and so do the filters of the view not shown. */
function searchFor({ view, bucket, agent, status, page }: ScreenParams): string {
  const search = new URLSearchParams();
  if (view === 'promises') {
    search.set('view', view);
    if (status !== 'all') search.set('status', status);
  } else {
    if (bucket !== 'all') search.set('bucket', bucket);
    if (agent !== null) search.set('agent', agent);
  }
  if (page > 1) search.set('page', String(page));
  return search.toString();
}

const SUBTITLES: Record<View, string> = {
  'out-of-credit': 'Devices whose credit has run out, most recently first: call these customers before they fall further behind.',
  promises: 'What customers promised to pay, and whether they did: call about the promises due today and the broken ones.',
};

const PROMISES_EMPTY: Record<StatusFilter, string> = {
  all: 'Nobody has promised to pay yet.',
  due: 'No promises due today.',
  broken: 'No broken promises.',
  upcoming: 'No promises coming up.',
  kept: 'No promises kept yet.',
  paid_late: 'No promises paid late.',
};

/** What Out of Credit says when the list is empty, by its band and agent. */
function emptyState(bucket: CollectionBucketFilter, agent: AgentFilter): { text: string; hint: string } {
  if (agent !== null) {
    return bucket === 'all'
      ? { text: 'No devices of this agent are out of credit.', hint: 'Choose All agents to see every device out of credit.' }
      : { text: 'No devices of this agent in this band.', hint: 'Choose All agents, or another band, to see more devices.' };
  }
  return bucket === 'all'
    ? { text: 'No devices are out of credit.', hint: 'Every device given out still has credit.' }
    : { text: 'No devices in this band.', hint: 'Choose All to see every device out of credit.' };
}

/**
 * The server's business day (YYYY-MM-DD) from whichever summary has said it,
 * the shown view's first; until one has, today in the time zone GET /me names. Reads the cache
 * only: the filter cards ask for the summaries (Out of Credit's of the agent chosen).
 */
function useBusinessDay(view: View, agent: AgentFilter): string {
  const collections = useCollectionsSummary(agent, false).data?.today;
  const promises = usePromisesSummary(false).data?.today;
  const zoneToday = useBusinessToday();
  return (view === 'promises' ? (promises ?? collections) : (collections ?? promises)) ?? zoneToday;
}

/** Collections: the devices out of credit, so staff know whom to call, and the promises to pay they were given. */
export default function CollectionsRoute() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const screen = readParams(params);
  const { view, bucket, agent, status, page } = screen;
  const currency = useOrganizationCurrency();
  const exporter = useExportCollections();
  // Only the shown view's list is asked for.
  const collections = useCollections({ page, limit: COLLECTIONS_PAGE_SIZE, bucket, agent }, view === 'out-of-credit');
  const promises = usePromises({ page, limit: PROMISES_PAGE_SIZE, status }, view === 'promises');
  const list = view === 'promises' ? promises : collections;
  const totalPages = list.data?.totalPages ?? 0;
  const today = useBusinessDay(view, agent);
  const empty = emptyState(bucket, agent);
  // The device whose contact is being logged; kept while the modal closes so its title stays put.
  const [contacting, setContacting] = useState<ContactTarget | null>(null);
  const [contactOpened, setContactOpened] = useState(false);
  const [texting, setTexting] = useState<SmsTarget | null>(null);
  const [asking, setAsking] = useState<AskToPayTarget | null>(null);
  const [textingBand, setTextingBand] = useState(false);
  const { user } = useSession();
  // Texting a whole band is for owners and admins (the API refuses staff).
  const textsBands = managesOrganization(user);

  const show = (next: Partial<ScreenParams>) => setParams(searchFor({ ...screen, ...next }), { replace: true });
  const logContact = (target: ContactTarget) => {
    setContacting(target);
    setContactOpened(true);
  };

  // A page past the end (customers have paid since the link was made): the last page there is.
  if (!list.isPlaceholderData && list.isSuccess && totalPages > 0 && page > totalPages) {
    return <Navigate to={{ search: `?${searchFor({ ...screen, page: totalPages })}` }} replace />;
  }

  return (
    <>
      <PageHeader
        title="Collections"
        subtitle={SUBTITLES[view]}
        actions={
          <>
            {/* The export is of the devices out of credit: a promise's row has no band to export by. */}
            {view === 'out-of-credit' && textsBands ? (
              <>
                <Button variant="default" leftSection={<IconMessages size={16} />} onClick={() => setTextingBand(true)} visibleFrom="sm">
                  Text This Band
                </Button>
                {/* On a phone, an icon: three labelled buttons take two rows and push the list off the screen. */}
                <Tooltip label="Text This Band" withArrow>
                  <ActionIcon variant="default" size={36} aria-label="Text This Band" onClick={() => setTextingBand(true)} hiddenFrom="sm">
                    <IconMessages size={18} />
                  </ActionIcon>
                </Tooltip>
              </>
            ) : null}
            {view === 'out-of-credit' ? (
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                onClick={() => exporter.mutate({ bucket, agent })}
                loading={exporter.isPending}
              >
                Export CSV
              </Button>
            ) : null}
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: collectionKeys.all })}
              loading={list.isFetching && !list.isPending}
            >
              Refresh
            </Button>
          </>
        }
      />
      <Tabs value={view} onChange={(v) => v && v !== view && show({ view: v as View, bucket: 'all', agent: null, status: 'all', page: 1 })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="out-of-credit" leftSection={<IconBatteryOff size={16} />}>
            Out of Credit
          </Tabs.Tab>
          <Tabs.Tab value="promises" leftSection={<IconCalendarDollar size={16} />}>
            Promises to Pay
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="out-of-credit">
          <BucketFilter
            value={bucket}
            agent={agent}
            onChange={(next) => show({ bucket: next, page: 1 })}
            onAgentChange={(next) => show({ agent: next, page: 1 })}
          />
          <Card padding="md" radius="md">
            <CollectionsTable
              rows={collections.data?.data}
              currency={currency}
              loading={collections.isPending}
              error={collections.isError ? errorMessage(collections.error, LOAD_FAILED) : null}
              onRetry={() => void collections.refetch()}
              emptyText={empty.text}
              emptyHint={empty.hint}
              onLogContact={logContact}
              onSendSms={setTexting}
              onAskToPay={setAsking}
            />
            <PaginationControl
              page={page}
              total={collections.data?.total ?? 0}
              pageSize={COLLECTIONS_PAGE_SIZE}
              onPageChange={(next) => show({ page: next })}
              itemLabel="devices"
            />
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="promises">
          <PromiseStatusFilter value={status} onChange={(next) => show({ status: next, page: 1 })} />
          <Card padding="md" radius="md">
            <PromisesTable
              rows={promises.data?.data}
              currency={currency}
              loading={promises.isPending}
              error={promises.isError ? errorMessage(promises.error, PROMISES_LOAD_FAILED) : null}
              onRetry={() => void promises.refetch()}
              emptyText={PROMISES_EMPTY[status]}
              emptyHint={status === 'all' ? 'A promise logged with Log Contact on Out of Credit shows here.' : 'Choose All to see every promise.'}
              onLogContact={logContact}
              onSendSms={setTexting}
              onAskToPay={setAsking}
            />
            <PaginationControl
              page={page}
              total={promises.data?.total ?? 0}
              pageSize={PROMISES_PAGE_SIZE}
              onPageChange={(next) => show({ page: next })}
              itemLabel="promises"
            />
          </Card>
        </Tabs.Panel>
      </Tabs>
      <LogContactModal account={contacting} opened={contactOpened} onClose={() => setContactOpened(false)} today={today} />
      <SendSmsModal target={texting} onClose={() => setTexting(null)} />
      <AskToPayModal target={asking} onClose={() => setAsking(null)} />
      <TextBandModal bucket={bucket} agent={agent} opened={textingBand} onClose={() => setTextingBand(false)} />
    </>
  );
}
