// The API's contract (packages/contracts: items, products, tokens, customers), plus
// what only this screen needs.
import type { ItemStatus } from '@kidogo/contracts';

export type {
  CustomerListReply,
  Item,
  ItemAssignInput,
  ItemAssignReply,
  ItemInput,
  ItemReply,
  ItemStatus,
  ItemUpdate,
  Product,
  ProductListReply,
  ProductsSummaryReply,
  UpdateTokenCountInput,
  UpdateTokenCountReply,
} from '@kidogo/contracts';

/** The contract's ITEM_STATUSES, repeated so the screen does not load the schemas at run time. */
export const ITEM_STATUSES: readonly ItemStatus[] = ['available', 'assigned', 'maintenance', 'retired'];

export type ProductStatusFilter = 'all' | 'assigned' | 'unassigned';

/** What the list asks GET /products for (the contract's query with its defaults applied). */
export interface ProductListQuery {
  page: number;
  limit: number;
  search?: string;
  status: ProductStatusFilter;
  /** One stock location's devices (its id), or those in none ('none'). */
  location_id?: number | 'none';
}

/** The fields of a customer the assign dialog shows. */
export interface CustomerSummary {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  id_number?: string;
  county?: string | null;
  status?: string;
}
