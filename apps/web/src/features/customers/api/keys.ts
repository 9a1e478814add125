import type { CustomerListQuery } from './types';

/** Query keys of the customers feature; mutations invalidate through these, never retyped arrays. */
export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (q: CustomerListQuery) => [...customerKeys.lists(), q] as const,
  detail: (id: number) => [...customerKeys.all, 'detail', id] as const,
  items: (id: number) => [...customerKeys.detail(id), 'items'] as const,
  payments: (id: number) => [...customerKeys.detail(id), 'payments'] as const,
  status: (id: number) => [...customerKeys.detail(id), 'status'] as const,
};
