// The API's contract (packages/contracts/src/invoices.ts), plus what only this screen needs.
import type { InvoiceStatus } from '@kidogo/contracts';

export type {
  Invoice,
  InvoiceList as InvoiceListReply,
  InvoiceStats,
  InvoiceStatus,
  LineItem,
  InvoiceSettings as GlobalInvoiceSettings,
  OrgInvoiceSettings,
} from '@kidogo/contracts';

/**
 * The statuses the Invoices screen sets (spec §4): pending, sent, paid,
 * overdue, draft. The contract also knows cancelled, the console's.
 */
export const SCREEN_INVOICE_STATUSES: readonly InvoiceStatus[] = ['pending', 'sent', 'paid', 'overdue', 'draft'];

/** The line-items shape of POST /invoices and POST /admin/invoices as the invoices screen sends it. */
export interface CreateInvoiceInput {
  organization_id: string;
  due_date: string;
  description?: string | null;
  /** Computed here for the user to see; the server computes its own from the lines. */
  amount: number;
  /** A JSON string of {description, quantity, unit_price, total_amount} (spec §7). */
  line_items: string;
}

export interface OrganizationOption {
  organization_id: string;
  name: string | null;
}
