import type { ProductListQuery } from './types';

/** Query keys of the products feature; mutations invalidate through these. */
export const productKeys = {
  all: ['products'] as const,
  summary: () => [...productKeys.all, 'summary'] as const,
  lists: () => [...productKeys.all, 'list'] as const,
  list: (q: ProductListQuery) => [...productKeys.lists(), q] as const,
  customerSearch: (term: string) => [...productKeys.all, 'customer-search', term] as const,
};
