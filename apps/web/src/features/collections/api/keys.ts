import type { CollectionsListQuery } from './types';

/**
 * Query keys of the collections feature. Nothing here writes: a payment
 * recorded on another screen refreshes everything cached (refreshAfterWrite),
 * these lists included.
 */
export const collectionKeys = {
  all: ['collections'] as const,
  summary: () => [...collectionKeys.all, 'summary'] as const,
  lists: () => [...collectionKeys.all, 'list'] as const,
  list: (q: CollectionsListQuery) => [...collectionKeys.lists(), q] as const,
};
