// The API's contract (packages/contracts/src/collections.ts), plus what only this screen needs.
import type { COLLECTION_BUCKET_FILTERS, PROMISE_STATUS_FILTERS } from '@kidogo/contracts';

export type {
  CollectionAccount,
  CollectionAgentsReply,
  CollectionBucket,
  CollectionsReply,
  CollectionsSummaryReply,
  Contact,
  ContactInput,
  ContactListReply,
  ContactOutcome,
  ContactReply,
  PromiseRow,
  PromisesReply,
  PromisesSummaryReply,
  PromiseStatus,
} from '@kidogo/contracts';

/** 'all' or one band of days without credit: what the screen filters on and keeps in the URL. */
export type CollectionBucketFilter = (typeof COLLECTION_BUCKET_FILTERS)[number];

/**
 * One sales agent's customers (their agent_id, or NO_AGENT for the customers
 * without one), or null for every agent's: what the screen filters on and
 * keeps in the URL.
 */
export type AgentFilter = string | null;

/** What the list asks GET /collections for (the contract's query with its defaults applied). */
export interface CollectionsListQuery {
  page: number;
  limit: number;
  bucket: CollectionBucketFilter;
  agent: AgentFilter;
}

/** 'all' or one promise status: what the Promises view filters on and keeps in the URL. */
export type PromiseStatusFilter = (typeof PROMISE_STATUS_FILTERS)[number];

/** What the Promises view asks GET /collections/promises for (the contract's query with its defaults applied). */
export interface PromisesListQuery {
  page: number;
  limit: number;
  status: PromiseStatusFilter;
}
