import { Button, Card } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { COLLECTION_BUCKET_FILTERS } from '@kidogo/contracts';
import { Navigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { PaginationControl } from '@/components/ui/pagination-control';
import { errorMessage } from '@/lib/api-client';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import { useExportCollections } from '../api/export-collections';
import { COLLECTIONS_PAGE_SIZE, useCollections } from '../api/get-collections';
import { collectionKeys } from '../api/keys';
import type { CollectionAccount, CollectionBucketFilter } from '../api/types';
import { BucketFilter } from '../components/bucket-filter';
import { CollectionsTable } from '../components/collections-table';
import { localToday } from '../components/last-contact';
import { LogContactModal } from '../components/log-contact-modal';

export const LOAD_FAILED = 'Failed to load collections';

/** The band and page from the URL, so a reload or a shared link opens the same list; anything else reads as All, page 1. */
function readParams(params: URLSearchParams): { bucket: CollectionBucketFilter; page: number } {
  const requested = params.get('bucket') ?? '';
  const bucket = (COLLECTION_BUCKET_FILTERS as readonly string[]).includes(requested) ? (requested as CollectionBucketFilter) : 'all';
  const page = Number(params.get('page'));
  return { bucket, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** Defaults stay out of the URL: /collections is All, page 1. */
function searchFor({ bucket, page }: { bucket: CollectionBucketFilter; page: number }): string {
  const search = new URLSearchParams();
  if (bucket !== 'all') search.set('bucket', bucket);
  if (page > 1) search.set('page', String(page));
  return search.toString();
}

/** Collections: the devices out of credit, so staff know whom to call. */
export default function CollectionsRoute() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { bucket, page } = readParams(params);
  const currency = useOrganizationCurrency();
  const exporter = useExportCollections();
  const collections = useCollections({ page, limit: COLLECTIONS_PAGE_SIZE, bucket });
  const total = collections.data?.total ?? 0;
  const totalPages = collections.data?.totalPages ?? 0;
  // The device whose contact is being logged; kept while the modal closes so its title stays put.
  const [contacting, setContacting] = useState<CollectionAccount | null>(null);
  const [contactOpened, setContactOpened] = useState(false);
  const today = localToday();

  const show = (next: { bucket: CollectionBucketFilter; page: number }) => setParams(searchFor(next), { replace: true });

  // A page past the end (customers have paid since the link was made): the last page there is.
  if (!collections.isPlaceholderData && collections.isSuccess && totalPages > 0 && page > totalPages) {
    return <Navigate to={{ search: `?${searchFor({ bucket, page: totalPages })}` }} replace />;
  }

  return (
    <>
      <PageHeader
        title="Collections"
        subtitle="Devices whose credit has run out, most recently first: call these customers before they fall further behind."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => exporter.mutate(bucket)}
              loading={exporter.isPending}
            >
              Export CSV
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void qc.invalidateQueries({ queryKey: collectionKeys.all })}
              loading={collections.isFetching && !collections.isPending}
            >
              Refresh
            </Button>
          </>
        }
      />
      <BucketFilter value={bucket} onChange={(next) => show({ bucket: next, page: 1 })} />
      <Card padding="md" radius="md">
        <CollectionsTable
          rows={collections.data?.data}
          currency={currency}
          loading={collections.isPending}
          error={collections.isError ? errorMessage(collections.error, LOAD_FAILED) : null}
          onRetry={() => void collections.refetch()}
          emptyText={bucket === 'all' ? 'No devices are out of credit.' : 'No devices in this band.'}
          emptyHint={bucket === 'all' ? 'Every device given out still has credit.' : 'Choose All to see every device out of credit.'}
          today={today}
          onLogContact={(account) => {
            setContacting(account);
            setContactOpened(true);
          }}
        />
        <PaginationControl
          page={page}
          total={total}
          pageSize={COLLECTIONS_PAGE_SIZE}
          onPageChange={(next) => show({ bucket, page: next })}
          itemLabel="devices"
        />
      </Card>
      <LogContactModal account={contacting} opened={contactOpened} onClose={() => setContactOpened(false)} today={today} />
    </>
  );
}
