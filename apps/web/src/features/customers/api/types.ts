// Mirrors packages/contracts/src/customers.ts and imports.ts of the API
// worktree (feat/api-core) until that contract is merged into main; then
// these become re-exports from @kidogo/contracts.

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export const MARITAL_STATUSES = ['Single', 'Married', 'Divorced', 'Widowed'] as const;
export const EDUCATION_LEVELS = ['Primary', 'Secondary', 'Diploma', "Bachelor's Degree", "Master's Degree", 'PhD'] as const;
export const LANGUAGES = ['English', 'Swahili', 'French', 'Arabic'] as const;
export const CUSTOMER_TYPES = ['individual', 'business', 'organization'] as const;
export const CUSTOMER_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const CUSTOMER_SEARCH_FIELDS = [
  'customer_name',
  'phone_contact',
  'id_number',
  'email',
  'county',
  'constituency',
  'occupation',
] as const;
export type CustomerSearchField = (typeof CUSTOMER_SEARCH_FIELDS)[number];

export interface OffsetPagination {
  total: number;
  total_pages: number;
  limit: number;
  offset: number;
}

export interface Customer {
  customer_id: number;
  organization_id: string;
  customer_name: string;
  id_number: string;
  phone_contact: string;
  email: string | null;
  country: string | null;
  gender: (typeof GENDERS)[number] | null;
  /** YYYY-MM-DD */
  date_of_birth: string | null;
  marital_status: (typeof MARITAL_STATUSES)[number] | null;
  county: string | null;
  constituency: string | null;
  ward: string | null;
  sub_location: string | null;
  village: string | null;
  postal_address: string | null;
  occupation: string | null;
  employer_name: string | null;
  education_level: (typeof EDUCATION_LEVELS)[number] | null;
  preferred_language: (typeof LANGUAGES)[number];
  customer_type: (typeof CUSTOMER_TYPES)[number];
  agent_id: string | null;
  status: (typeof CUSTOMER_STATUSES)[number];
  created_at: string;
  updated_at: string;
}

/** POST /register-customer body (and PUT /customers/{id}, any subset). */
export type CustomerInput = {
  customer_name: string;
  id_number: string;
  phone_contact: string;
  preferred_language: string;
  customer_type: string;
  status: string;
  organization_id?: string | null;
} & Partial<Record<
  | 'email'
  | 'country'
  | 'gender'
  | 'date_of_birth'
  | 'marital_status'
  | 'county'
  | 'constituency'
  | 'ward'
  | 'sub_location'
  | 'village'
  | 'postal_address'
  | 'occupation'
  | 'employer_name'
  | 'education_level'
  | 'agent_id',
  string | null
>>;
export type CustomerUpdate = Partial<CustomerInput>;

export interface CustomerListQuery {
  limit: number;
  offset: number;
  search_term?: string;
  search_field?: CustomerSearchField;
}

export interface CustomerListReply {
  data: Customer[];
  pagination: OffsetPagination;
}

/** A device as the API shows it (GET /customers/{id}/items). */
export interface CustomerItem {
  item_id: number;
  serial_number: string;
  product_name: string;
  status: string;
  is_assigned: boolean;
  assigned_at: string | null;
  total_paid: string;
  credit_until: string | null;
  paid_off: boolean;
}
export interface CustomerItemsReply {
  data: CustomerItem[];
}

export interface CustomerPayment {
  payment_id: number;
  amount: string;
  currency: string;
  status: 'success' | 'completed' | 'pending' | 'failed';
  payment_method: string;
  transaction_code: string | null;
  reference: string | null;
  item_serial_number: string | null;
  days_bought: number;
  paid_at: string;
  created_at: string;
}
export interface CustomerPaymentsReply {
  data: CustomerPayment[];
  pagination: OffsetPagination;
}

export interface CustomerStatusReply {
  customer_id: number;
  customer_name: string;
  status: string;
  devices: {
    serial_number: string;
    product_name: string;
    status: string;
    days_left: number;
    credit_until: string | null;
    paid_off: boolean;
    total_paid: string;
    payoff_price: string | null;
    remaining: string | null;
  }[];
  total_paid: string;
  payments_count: number;
  balance: string;
  template: { template_id: number; template_name: string; daily_price: string; currency: string } | null;
}

export interface CsvRowError {
  row: number;
  field: string;
  message: string;
}

/** POST /upload-csv reply. */
export interface CsvImportReport {
  job_id: string;
  rows: number;
  imported: number;
  skipped: number;
  duplicates: number;
  errors: CsvRowError[];
  more_errors: number;
  duration_ms: number;
}
