import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, suspendableList } from '@/lib/api-client';
import { productKeys } from './keys';
import type { Product, ProductListQuery, ProductListReply } from './types';

export const PRODUCT_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PRODUCT_PAGE_SIZE = 20;

export interface ProductPage {
  data: Product[];
  total: number;
}

export const getProducts = (q: ProductListQuery, signal?: AbortSignal) =>
  suspendableList<ProductPage>(
    api
      .get<Partial<ProductListReply> | null>('/products', {
        query: { page: q.page, limit: q.limit, search: q.search, status: q.status, location_id: q.location_id },
        signal,
      })
      .then((reply) => {
        const data = reply?.data?.items ?? [];
        return { data, total: reply?.data?.pagination?.total ?? data.length };
      }),
    { total: 0 },
  );

export const productsQueryOptions = (q: ProductListQuery) =>
  queryOptions({ queryKey: productKeys.list(q), queryFn: ({ signal }) => getProducts(q, signal) });

export const useProducts = (q: ProductListQuery) =>
  useQuery({ ...productsQueryOptions(q), placeholderData: keepPreviousData });
