// Mirrors packages/contracts/src/templates.ts of the API worktree
// (feat/api-core) until that contract is merged into main; then these
// become re-exports from @kidogo/contracts.

export const CURRENCIES = ['KES', 'USD', 'MZN', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface OffsetPagination {
  total: number;
  total_pages: number;
  limit: number;
  offset: number;
}

export interface PaymentTemplate {
  template_id: number;
  organization_id: string;
  template_name: string;
  description: string | null;
  deposit_made: string;
  daily_price: string;
  activation_price: string;
  grace_period_days: number;
  currency: Currency;
  payment_method: string | null;
  frequency: string | null;
  /** The total after which the device is paid off; null: the device's price. */
  free_code_price: string | null;
  created_at: string;
  updated_at: string;
}

/** POST /payments/templates/create and PUT /payments/templates/{id}. */
export interface TemplateInput {
  template_name: string;
  description: string | null;
  deposit_made: number;
  daily_price: number;
  activation_price: number;
  grace_period_days: number;
  currency: Currency;
  payment_method: string | null;
  frequency: string | null;
  free_code_price: number | null;
  organization_id?: string | null;
}

export interface TemplateListReply {
  data: { data: PaymentTemplate[]; pagination: OffsetPagination };
}

export interface TemplatePerformance {
  template_id: number;
  template_name: string;
  currency: Currency;
  daily_price: string;
  /** Customers whose active template this is. */
  customers_assigned: number;
  /** Successful payments made while their customer was on this template. */
  revenue_collected: string;
  payments_count: number;
  /** Mean days bought per payment, one decimal. */
  average_days_bought: number;
  devices_assigned: number;
  /** Devices with credit still running, or paid off. */
  devices_paid_up: number;
  /** devices_paid_up / devices_assigned, 0..1. */
  paid_up_share: number;
}

export interface TemplateUsage {
  template_id: number;
  template_name: string;
  active_assignments: number;
  ended_assignments: number;
  customers_ever: number;
  assignments_by_month: { month: string; assignments: number }[];
}

export interface TemplateAssignInput {
  customer_id: number;
  template_id: number;
  start_date?: string | null;
  end_date?: string | null;
  notes?: string | null;
}

export interface TemplateAssignment {
  assignment_id: number;
  customer_id: number;
  customer_name: string;
  template_id: number;
  template_name: string;
  start_date: string | null;
  end_date: string | null;
  notes: string | null;
  is_active: boolean;
  assigned_by: string | null;
  assigned_at: string;
  ended_at: string | null;
}

export interface TemplateAssignReply {
  message: string;
  /** False when the customer was already on this template. */
  changed: boolean;
  assignment: TemplateAssignment;
}

export interface TemplateAssignmentsQuery {
  limit: number;
  offset: number;
  template_id?: number;
  active?: boolean;
}

export interface TemplateAssignmentsReply {
  data: TemplateAssignment[];
  pagination: OffsetPagination;
}

/** A customer as the assignment picker lists them. */
export interface CustomerChoice {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  id_number: string;
  county: string | null;
}
