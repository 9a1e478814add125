import type { AgentFilter, CollectionsListQuery, PromisesListQuery } from './types';

/**
 * Query keys of the collections feature. A contact logged here refreshes
 * `all` (the lists show each device's last contact, the Promises view each
 * device's latest promise); a payment recorded on another screen refreshes
 * everything cached (refreshAfterWrite), these lists included.
 */
export const collectionKeys = {
  all: ['collections'] as const,
  summaries: () => [...collectionKeys.all, 'summary'] as const,
  /** The whole organization's counts (agent null), or one sales agent's. */
  summary: (agent: AgentFilter) => [...collectionKeys.summaries(), { agent }] as const,
  agents: () => [...collectionKeys.all, 'agents'] as const,
  lists: () => [...collectionKeys.all, 'list'] as const,
  list: (q: CollectionsListQuery) => [...collectionKeys.lists(), q] as const,
  contacts: (itemId: number) => [...collectionKeys.all, 'contacts', itemId] as const,
  promises: () => [...collectionKeys.all, 'promises'] as const,
  promisesSummary: () => [...collectionKeys.promises(), 'summary'] as const,
  promiseLists: () => [...collectionKeys.promises(), 'list'] as const,
  promiseList: (q: PromisesListQuery) => [...collectionKeys.promiseLists(), q] as const,
};
