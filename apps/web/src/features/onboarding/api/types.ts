// Mirrors packages/contracts/src/{customers,items,templates,onboarding}.ts of
// feat/api-core until they are merged; only the fields this screen reads.

export interface OffsetPagination {
  total: number;
  total_pages: number;
  limit: number;
  offset: number;
}

export interface CustomerOption {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  id_number?: string;
  county?: string | null;
}

export interface ItemOption {
  item_id?: number;
  serial_number: string;
  product_name: string;
  manufacturer: string | null;
  product_oem?: string | null;
  status?: string;
  is_assigned?: boolean;
  price?: string;
}

export interface TemplateOption {
  template_id: number;
  template_name: string;
  daily_price: string;
  activation_price: string;
  grace_period_days: number;
  currency?: string | null;
  deposit_made?: string;
}

export interface OnboardingInput {
  customer_id: number;
  item_serial_number: string;
  template_id?: number;
}

export interface OnboardingReply {
  message: string;
}

/** A page of options and how many there are in all. */
export interface OptionPage<T> {
  data: T[];
  total: number;
}
