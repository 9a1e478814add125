// Mirrors packages/contracts/src/{items,products,tokens,customers}.ts of the API
// branch being built (feat/api-core, feat/api-money); replaced by imports from
// @kidogo/contracts once those are merged.

export const ITEM_STATUSES = ['available', 'assigned', 'maintenance', 'retired'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface Item {
  item_id: number;
  organization_id: string;
  serial_number: string;
  product_name: string;
  product_type: string | null;
  manufacturer: string | null;
  model: string | null;
  description: string | null;
  price: string;
  status: ItemStatus;
  product_oem: string | null;
  is_assigned: boolean;
  customer_id: number | null;
  customer_name: string | null;
  assigned_at: string | null;
  token_count: number;
  total_paid: string;
  credit_until: string | null;
  paid_off: boolean;
  created_at: string;
  updated_at: string;
}
export type Product = Item;

export interface ProductsSummaryReply {
  data: { total_products: number; assigned_products: number; unassigned_products: number };
}

export const PRODUCT_STATUS_FILTERS = ['all', 'assigned', 'unassigned'] as const;
export type ProductStatusFilter = (typeof PRODUCT_STATUS_FILTERS)[number];

export interface ProductListQuery {
  page: number;
  limit: number;
  search?: string;
  status: ProductStatusFilter;
}

export interface ProductListReply {
  data: {
    items: Product[];
    pagination: { total: number; total_pages: number; page: number; limit: number };
  };
}

export interface ItemInput {
  serial_number: string;
  product_name: string;
  product_type?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  description?: string | null;
  price: number;
  status: ItemStatus;
  product_oem?: string | null;
}

export type ItemUpdate = Partial<Omit<ItemInput, 'serial_number'>>;

export interface ItemReply {
  message: string;
  item: Item;
}

export interface ItemAssignInput {
  customer_id: number;
  item_serial_number: string;
  organization_id?: unknown;
}

export interface ItemAssignReply {
  message: string;
  changed: boolean;
  item: Item;
}

export interface UpdateTokenCountInput {
  serial_number: string;
  new_token_count: number;
  reason?: string;
}

export interface UpdateTokenCountReply {
  message: string;
  serial_number: string;
  old_token_count: number;
  new_token_count: number;
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

export interface CustomerListReply {
  data: CustomerSummary[];
  pagination: { total: number; total_pages: number; limit: number; offset: number };
}
