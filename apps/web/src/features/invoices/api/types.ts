// Mirrors packages/contracts/src/invoices.ts of feat/api-console until it is merged.

export const INVOICE_STATUSES = ['pending', 'sent', 'paid', 'overdue', 'draft', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface LineItem {
  description: string;
  quantity: number;
  unit_price: string;
  total_amount: string;
}

export interface Invoice {
  invoice_id: string;
  invoice_number: string;
  organization_id: string;
  organization_name: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  description: string | null;
  line_items: LineItem[] | string | null;
  subtotal?: string;
  tax_rate?: number;
  tax_amount?: string;
  amount: string;
  currency: string | null;
  status: InvoiceStatus | (string & {});
  stored_status?: string;
  due_date: string | null;
  paid_at: string | null;
  payment_tx_hash?: string | null;
  payment_submitted_at?: string | null;
  created_by?: string | null;
  created_at: string;
  updated_at?: string;
}

export interface InvoiceStats {
  total_invoices: number;
  paid_invoices: number;
  pending_invoices: number;
  overdue_invoices?: number;
  total_revenue: string;
  outstanding_amount?: string;
}

export interface InvoiceListReply {
  data: Invoice[];
  pagination?: { total: number };
}

export interface CreateInvoiceInput {
  organization_id: string;
  due_date: string;
  description?: string | null;
  amount: number;
  /** The invoices screen sends the rows as a JSON string (spec §7). */
  line_items: string;
}

/** GET/PUT /admin/settings/invoices: the platform's settings (super admin). */
export interface GlobalInvoiceSettings {
  default_tax_rate: number;
  default_currency: string;
  invoice_prefix: string;
  template_html: string | null;
  default_payment_terms: number;
  issuer_name: string | null;
  issuer_details: string | null;
  updated_at?: string;
}

/** GET/PUT /update-invoice-settings: an organization's own billing preferences (owner). */
export interface OrgInvoiceSettings {
  organization_id: string;
  default_currency: string;
  default_payment_terms: number;
  billing_name: string | null;
  billing_details: string | null;
  updated_at?: string | null;
}

export interface OrganizationOption {
  organization_id: string;
  name: string | null;
}
