import { z } from 'zod';
import { isCalendarDay, zMoneyInput, ZMoneySchema, ZOffsetPaginationSchema, ZPagePaginationSchema, zQueryInt, zQueryOffset } from './common.js';

export const INVOICE_STATUSES = ['pending', 'sent', 'paid', 'overdue', 'draft', 'cancelled'] as const;
export const ZInvoiceStatusSchema = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof ZInvoiceStatusSchema>;

export const INVOICE_CURRENCIES = ['USD', 'KES', 'MZN', 'EUR', 'GBP'] as const;
export const ZInvoiceCurrencySchema = z.enum(INVOICE_CURRENCIES);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date, YYYY-MM-DD (a full ISO date-time is cut to its date). */
export const zInvoiceDate = () =>
  z
    .string()
    .trim()
    .transform((s) => (/^\d{4}-\d{2}-\d{2}T/.test(s) ? s.slice(0, 10) : s))
    .refine((s) => ISO_DATE.test(s) && isCalendarDay(s), { error: 'must be a date (YYYY-MM-DD)' });

export const ZLineItemInputSchema = z.object({
  description: z.string().trim().max(500).default(''),
  quantity: zMoneyInput({ min: 0, max: 1_000_000 }),
  unit_price: zMoneyInput({ min: 0 }),
});

/** Line items as a JSON array or as a JSON string of one (the invoices screen sends a string). */
const zLineItems = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z
    .array(ZLineItemInputSchema, { error: 'must be a JSON array of {description, quantity, unit_price}' })
    .max(200)
    // Rows with an empty description are dropped, as the invoices screen does.
    .transform((rows) => rows.filter((r) => r.description !== ''))
    .refine((rows) => rows.length > 0, { error: 'needs at least one line item with a description' }),
);

/**
 * POST /admin/invoices and POST /invoices accept both shapes of the spec:
 * - line items: {organization_id, due_date, description?, line_items} → subtotal
 *   = Σ quantity × unit_price, tax at the global default_tax_rate, amount = subtotal + tax;
 * - console: {organization_id, customer_name, customer_email, amount, description?,
 *   due_date?, status?, customer_phone?} → amount is the total (no tax), one line item.
 * currency defaults to the organization's preferred currency, else the global
 * default; due_date (console shape) defaults to today + payment terms; status to pending.
 * An `amount` sent with line items is ignored: the server computes it.
 */
export const ZCreateInvoiceSchema = z
  .object({
    organization_id: z.string().trim().min(1, { error: 'is required' }).max(64).optional(),
    // Forms send an empty field as "": read it as not given.
    due_date: z.preprocess((v) => (v === '' ? null : v), zInvoiceDate().nullish()),
    description: z.string().trim().max(2000).nullish(),
    line_items: zLineItems.optional(),
    customer_name: z.string().trim().max(200).nullish(),
    customer_email: z.string().trim().max(254).nullish(),
    customer_phone: z.string().trim().max(40).nullish(),
    amount: zMoneyInput({ min: 0.01 }).optional(),
    currency: ZInvoiceCurrencySchema.optional(),
    status: ZInvoiceStatusSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const email = v.customer_email;
    if (email && !z.email().safeParse(email).success) {
      ctx.addIssue({ code: 'custom', path: ['customer_email'], message: 'must be a valid email' });
    }
    if (v.line_items !== undefined) {
      if (!v.due_date) ctx.addIssue({ code: 'custom', path: ['due_date'], message: 'is required' });
      return;
    }
    if (!v.customer_name) ctx.addIssue({ code: 'custom', path: ['customer_name'], message: 'is required' });
    if (!email) ctx.addIssue({ code: 'custom', path: ['customer_email'], message: 'is required' });
    if (v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required' });
  })
  .describe(
    'Two shapes. With line_items: due_date is required, and the amount is the sum of quantity × unit_price plus the ' +
      'default tax (an amount sent is ignored). Without line_items: customer_name, customer_email and amount are ' +
      'required, and the amount is the total. organization_id is for super admins (owners bill their own organization).',
  );
export type CreateInvoiceInput = z.infer<typeof ZCreateInvoiceSchema>;

export const ZLineItemSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unit_price: ZMoneySchema,
  total_amount: ZMoneySchema,
});
export type LineItem = z.infer<typeof ZLineItemSchema>;

/**
 * An invoice. `status` is what it reads as: pending, sent and draft invoices
 * past their due date read as overdue (stored_status keeps what was set).
 */
export const ZInvoiceSchema = z.object({
  invoice_id: z.string(),
  invoice_number: z.string(),
  organization_id: z.string(),
  organization_name: z.string().nullable(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_phone: z.string().nullable(),
  description: z.string().nullable(),
  line_items: z.array(ZLineItemSchema),
  subtotal: ZMoneySchema,
  tax_rate: z.number(),
  tax_amount: ZMoneySchema,
  amount: ZMoneySchema,
  currency: z.string(),
  status: ZInvoiceStatusSchema,
  stored_status: ZInvoiceStatusSchema,
  due_date: z.string().nullable(),
  paid_at: z.string().nullable(),
  payment_tx_hash: z.string().nullable(),
  payment_submitted_at: z.string().nullable(),
  created_by: z.string().nullable(),
  /** When the invoice was last emailed with its PDF (POST /invoices/{id}/email), and to which address; null if never. */
  emailed_at: z.string().nullable(),
  emailed_to: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Invoice = z.infer<typeof ZInvoiceSchema>;

/**
 * POST /invoices/{id}/email (owners and super admins; /admin/invoices/{id}/email for the console): the invoice's
 * PDF, attached to an email to `to` (default: the invoice's customer_email), with `message` above the summary.
 */
export const ZInvoiceEmailSchema = z.object({
  to: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(254, { error: 'must be at most 254 characters' }).pipe(z.email({ error: 'must be a valid email' })).optional(),
  ),
  message: z.string().trim().max(1000, { error: 'must be at most 1000 characters' }).optional(),
});
export type InvoiceEmailInput = z.infer<typeof ZInvoiceEmailSchema>;

/** GET /admin/invoices (super admin, every organization). */
export const ZAdminInvoiceListQuerySchema = z.object({
  limit: zQueryInt({ default: 50, min: 1, max: 200 }),
  offset: zQueryOffset(),
  status: ZInvoiceStatusSchema.optional(),
  organization_id: z.string().trim().max(64).optional(),
  /** Matches invoice number, organization id, customer name or email. */
  search: z.string().trim().max(100).optional(),
});
export type AdminInvoiceListQuery = z.infer<typeof ZAdminInvoiceListQuerySchema>;

export const ZAdminInvoiceListSchema = z.object({ data: z.array(ZInvoiceSchema), pagination: ZOffsetPaginationSchema });
export type AdminInvoiceList = z.infer<typeof ZAdminInvoiceListSchema>;

/** GET /invoices?page&limit: the caller's organization's invoices, newest first. */
export const ZInvoiceListQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 50, min: 1, max: 100 }),
  status: ZInvoiceStatusSchema.optional(),
});
export type InvoiceListQuery = z.infer<typeof ZInvoiceListQuerySchema>;

export const ZInvoicePagePaginationSchema = ZPagePaginationSchema;

export const ZInvoiceListSchema = z.object({ data: z.array(ZInvoiceSchema), pagination: ZInvoicePagePaginationSchema });
export type InvoiceList = z.infer<typeof ZInvoiceListSchema>;

/**
 * Invoice counts by the status they read as (so an overdue pending invoice
 * counts as overdue, not pending); total_revenue = sum of paid invoices;
 * outstanding = sum of invoices not paid or cancelled.
 */
/**
 * Invoice counts, and money per currency: amounts in different currencies
 * are never added together. total_revenue and outstanding_amount are in
 * `currency` (the scope's billing currency: the organization's, or the
 * global default for the console); by_currency has every currency invoiced.
 */
export const ZInvoiceStatsSchema = z.object({
  total_invoices: z.number().int(),
  paid_invoices: z.number().int(),
  pending_invoices: z.number().int(),
  overdue_invoices: z.number().int(),
  currency: z.string(),
  total_revenue: ZMoneySchema,
  outstanding_amount: ZMoneySchema,
  by_currency: z.array(z.object({ currency: z.string(), total_revenue: ZMoneySchema, outstanding_amount: ZMoneySchema })),
});
export type InvoiceStats = z.infer<typeof ZInvoiceStatsSchema>;

export const ZInvoiceIdParamSchema = z.object({ id: z.uuid({ error: 'must be an invoice id' }) });

export const ZInvoiceStatusUpdateSchema = z.object({ status: ZInvoiceStatusSchema });
export type InvoiceStatusUpdate = z.infer<typeof ZInvoiceStatusUpdateSchema>;

/** POST /submit-payment: the organization reports a payment; a super admin then marks the invoice paid. */
export const ZSubmitPaymentSchema = z.object({
  payment_id: z.uuid({ error: 'must be an invoice id' }),
  tx_hash: z.string().trim().min(1, { error: 'is required' }).max(200),
});
export type SubmitPaymentInput = z.infer<typeof ZSubmitPaymentSchema>;

/**
 * GET/PUT /admin/settings/invoices: the platform-wide invoice settings
 * (tax rate applied to line-item invoices, currency, numbering prefix,
 * HTML template with {{placeholders}}, payment terms in days, the issuer
 * printed on every invoice).
 */
export const ZInvoiceSettingsSchema = z.object({
  default_tax_rate: z.number().min(0).max(100),
  default_currency: ZInvoiceCurrencySchema,
  invoice_prefix: z.string(),
  template_html: z.string().nullable(),
  default_payment_terms: z.number().int(),
  issuer_name: z.string().nullable(),
  issuer_details: z.string().nullable(),
  updated_at: z.string(),
});
export type InvoiceSettings = z.infer<typeof ZInvoiceSettingsSchema>;

/** Placeholders a template_html may use; every value is HTML-escaped ({{line_items}} is rendered rows). */
export const INVOICE_TEMPLATE_PLACEHOLDERS = [
  'invoice_number',
  'invoice_id',
  'organization_id',
  'organization_name',
  'billing_details',
  'customer_name',
  'customer_email',
  'customer_phone',
  'description',
  'line_items',
  'subtotal',
  'tax_rate',
  'tax_amount',
  'amount',
  'currency',
  'status',
  'due_date',
  'created_at',
  'paid_at',
  'issuer_name',
  'issuer_details',
] as const;

const zTaxRate = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: 'must be a number from 0 to 100' })
    .finite({ error: 'must be a number from 0 to 100' })
    .min(0, { error: 'must be a number from 0 to 100' })
    .max(100, { error: 'must be a number from 0 to 100' })
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'must have at most 2 decimals' }),
);

export const ZInvoiceSettingsUpdateSchema = z
  .object({
    default_tax_rate: zTaxRate.optional(),
    default_currency: ZInvoiceCurrencySchema.optional(),
    invoice_prefix: z
      .string()
      .trim()
      .min(1, { error: 'is required' })
      .max(20)
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'may contain letters, digits, - and _ only' })
      .optional(),
    template_html: z.string().max(100_000).nullish(),
    default_payment_terms: z.coerce.number().int({ error: 'must be a whole number of days' }).min(0).max(365).optional(),
    issuer_name: z.string().trim().max(200).nullish(),
    issuer_details: z.string().trim().max(2000).nullish(),
  })
  .strict();
export type InvoiceSettingsUpdate = z.infer<typeof ZInvoiceSettingsUpdateSchema>;

/**
 * GET/PUT /update-invoice-settings (owners): the organization's own billing
 * preferences. default_currency and default_payment_terms apply to new
 * invoices billed to it (until the owner saves them they read as the global
 * settings' values);
 * billing_name and billing_details (address, tax number, contact) are printed
 * as the billed party on its invoices.
 */
export const ZOrgInvoiceSettingsSchema = z.object({
  organization_id: z.string(),
  default_currency: ZInvoiceCurrencySchema,
  default_payment_terms: z.number().int(),
  billing_name: z.string().nullable(),
  billing_details: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type OrgInvoiceSettings = z.infer<typeof ZOrgInvoiceSettingsSchema>;

export const ZOrgInvoiceSettingsUpdateSchema = z
  .object({
    default_currency: ZInvoiceCurrencySchema.optional(),
    default_payment_terms: z.coerce.number().int({ error: 'must be a whole number of days' }).min(0).max(365).optional(),
    billing_name: z.string().trim().max(200).nullish(),
    billing_details: z.string().trim().max(2000).nullish(),
  })
  .strict();
export type OrgInvoiceSettingsUpdate = z.infer<typeof ZOrgInvoiceSettingsUpdateSchema>;
