import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { CollectionAccount, CollectionsListQuery, CollectionsReply } from './types';

/** The contract's default page size. */
export const COLLECTIONS_PAGE_SIZE = 20;

export interface CollectionsPage {
  data: CollectionAccount[];
  total: number;
  totalPages: number;
}

export const getCollections = (q: CollectionsListQuery, signal?: AbortSignal) =>
  suspendableList<CollectionsPage>(
    api
      .get<Partial<CollectionsReply> | null>('/collections', { query: { page: q.page, limit: q.limit, bucket: q.bucket, agent: q.agent }, signal })
      .then((reply) => {
        const data = reply?.data?.items ?? [];
        const total = reply?.data?.pagination?.total ?? data.length;
        return { data, total, totalPages: reply?.data?.pagination?.total_pages ?? Math.ceil(total / q.limit) };
      }),
    { total: 0, totalPages: 0 },
  );

export const collectionsQueryOptions = (q: CollectionsListQuery) =>
  queryOptions({ queryKey: collectionKeys.list(q), queryFn: ({ signal }) => getCollections(q, signal) });

/**
 * The previous page stays on screen while the next one loads, so the table
 * does not jump. `enabled: false` while another view of the screen is shown.
 */
export const useCollections = (q: CollectionsListQuery, enabled = true) =>
  useQuery({ ...collectionsQueryOptions(q), placeholderData: keepPreviousData, enabled });
