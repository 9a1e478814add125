// The template shapes are the API's contract (packages/contracts/src/templates.ts).
export { CURRENCIES } from '@kidogo/contracts';
export type {
  Currency,
  OffsetPagination,
  PaymentTemplate,
  TemplateAssignInput,
  TemplateAssignment,
  TemplateAssignmentsReply,
  TemplateAssignReply,
  TemplateListReply,
  TemplatePerformance,
} from '@kidogo/contracts';
import type { Currency, TemplateUsageReply } from '@kidogo/contracts';

/** GET /payments/templates/{id}/usage's data. */
export type TemplateUsage = TemplateUsageReply['data'];

/** What the template form sends to POST /payments/templates/create and PUT /payments/templates/{id}. */
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

export interface TemplateAssignmentsQuery {
  limit: number;
  offset: number;
  template_id?: number;
  active?: boolean;
}

/** A customer as the assignment picker lists them (a few fields of Customer). */
export interface CustomerChoice {
  customer_id: number;
  customer_name: string;
  phone_contact: string;
  id_number: string;
  county: string | null;
}
