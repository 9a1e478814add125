// The customer shapes are the API's contract (packages/contracts/src/customers.ts, items.ts, imports.ts).
import type { CustomerSearchField, Item } from '@kidogo/contracts';

export {
  CUSTOMER_SEARCH_FIELDS,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPES,
  EDUCATION_LEVELS,
  GENDERS,
  LANGUAGES,
  MARITAL_STATUSES,
} from '@kidogo/contracts';
export type {
  CsvImportReport,
  CsvRowError,
  Customer,
  CustomerInput,
  CustomerItemsReply,
  CustomerListReply,
  CustomerPayment,
  CustomerPaymentsReply,
  CustomerSearchField,
  CustomerStatusReply,
  CustomerUpdate,
  OffsetPagination,
} from '@kidogo/contracts';

/** A device of the customer (GET /customers/{id}/items). */
export type CustomerItem = Item;

export interface CustomerListQuery {
  limit: number;
  offset: number;
  search_term?: string;
  search_field?: CustomerSearchField;
}
