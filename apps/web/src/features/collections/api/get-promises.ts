import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { collectionKeys } from './keys';
import type { PromiseRow, PromisesListQuery, PromisesReply } from './types';

/** The contract's default page size. */
export const PROMISES_PAGE_SIZE = 20;

export interface PromisesPage {
  data: PromiseRow[];
  total: number;
  totalPages: number;
}

/** GET /collections/promises: each device's latest promise to pay of `status`, upcoming and due soonest first, the others latest first. */
export const getPromises = (q: PromisesListQuery, signal?: AbortSignal) =>
  suspendableList<PromisesPage>(
    api
      .get<Partial<PromisesReply> | null>('/collections/promises', { query: { page: q.page, limit: q.limit, status: q.status }, signal })
      .then((reply) => {
        const data = reply?.data?.items ?? [];
        const total = reply?.data?.pagination?.total ?? data.length;
        return { data, total, totalPages: reply?.data?.pagination?.total_pages ?? Math.ceil(total / q.limit) };
      }),
    { total: 0, totalPages: 0 },
  );

export const promisesQueryOptions = (q: PromisesListQuery) =>
  queryOptions({ queryKey: collectionKeys.promiseList(q), queryFn: ({ signal }) => getPromises(q, signal) });

/** As useCollections: the previous page stays while the next loads; `enabled: false` while the other view is shown. */
export const usePromises = (q: PromisesListQuery, enabled = true) =>
  useQuery({ ...promisesQueryOptions(q), placeholderData: keepPreviousData, enabled });
