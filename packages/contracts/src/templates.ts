import { z } from 'zod';
import { ZMoneySchema, ZOffsetPaginationSchema, zMoneyInput, zQueryInt, zQueryOffset } from './common.js';
import { zIdInput, zOptionalChoice, zOptionalText, zQueryBool, zRequiredText, zSearchTerm, zStrictDate } from './fields.js';

/**
 * A plan's currency: the specification's five, then the shillings and francs
 * that mobile money is received in and read from (Uganda, Tanzania, Rwanda),
 * so an organization there can sell on plans its customers pay in.
 */
export const CURRENCIES = ['KES', 'USD', 'MZN', 'EUR', 'GBP', 'UGX', 'TZS', 'RWF', 'GHS', 'ZMW'] as const;
export const ZCurrencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof ZCurrencySchema>;

/** Searchable columns of GET /payments/templates (search_field). */
export const TEMPLATE_SEARCH_FIELDS = ['template_name', 'description', 'payment_method', 'frequency'] as const;

/** A money field that may be left out: absent, null or "" count as not given. */
const zOptionalMoney = (min: number) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : v), zMoneyInput({ min }).nullable().optional());

const zGraceDays = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be a whole number of days' })
    .int({ error: 'must be a whole number of days' })
    .min(0, { error: 'must be at least 0' })
    .max(3650, { error: 'must be at most 3650' }),
);

/**
 * POST /payments/templates/create. template_name is trimmed and required;
 * daily_price at least 0.01; deposit_made, activation_price (≥ 0) and
 * grace_period_days (whole number ≥ 0) default to 0; currency (one of
 * CURRENCIES, any case) defaults to KES. free_code_price is the total
 * after which the device is paid off (and unlocked); when absent the
 * device's own price is used. organization_id is ignored.
 */
export const ZTemplateInputSchema = z.object({
  template_name: zRequiredText(200),
  description: zOptionalText(2000),
  deposit_made: zOptionalMoney(0).transform((v) => v ?? 0),
  daily_price: zMoneyInput({ min: 0.01 }),
  activation_price: zOptionalMoney(0).transform((v) => v ?? 0),
  grace_period_days: z
    .preprocess((v) => (v === null || v === '' ? undefined : v), zGraceDays.optional())
    .transform((v) => v ?? 0),
  currency: zOptionalChoice(CURRENCIES).transform((v) => v ?? 'KES'),
  payment_method: zOptionalText(50),
  frequency: zOptionalText(50),
  free_code_price: zOptionalMoney(0.01),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type TemplateInput = z.input<typeof ZTemplateInputSchema>;
export type TemplateInputParsed = z.output<typeof ZTemplateInputSchema>;

/** PUT /payments/templates/{id}: any subset, same rules; free_code_price null clears it. */
export const ZTemplateUpdateSchema = z.object({
  template_name: zRequiredText(200).optional(),
  description: zOptionalText(2000),
  deposit_made: zMoneyInput({ min: 0 }).optional(),
  daily_price: zMoneyInput({ min: 0.01 }).optional(),
  activation_price: zMoneyInput({ min: 0 }).optional(),
  grace_period_days: zGraceDays.optional(),
  currency: zOptionalChoice(CURRENCIES).transform((v) => v ?? undefined),
  payment_method: zOptionalText(50),
  frequency: zOptionalText(50),
  free_code_price: zOptionalMoney(0.01),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type TemplateUpdate = z.input<typeof ZTemplateUpdateSchema>;
export type TemplateUpdateParsed = z.output<typeof ZTemplateUpdateSchema>;

export const ZPaymentTemplateSchema = z.object({
  template_id: z.number().int(),
  organization_id: z.string(),
  template_name: z.string(),
  description: z.string().nullable(),
  deposit_made: ZMoneySchema,
  daily_price: ZMoneySchema,
  activation_price: ZMoneySchema,
  grace_period_days: z.number().int(),
  currency: ZCurrencySchema,
  payment_method: z.string().nullable(),
  frequency: z.string().nullable(),
  free_code_price: ZMoneySchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PaymentTemplate = z.infer<typeof ZPaymentTemplateSchema>;

/** GET /payments/templates: newest first; the templates page asks for limit 1000. */
export const ZTemplateListQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 1000 }),
  offset: zQueryOffset(),
  search_term: zSearchTerm,
  search_field: z.preprocess((v) => (v === undefined || v === '' ? 'template_name' : v), z.enum(TEMPLATE_SEARCH_FIELDS)),
});
export type TemplateListQuery = z.input<typeof ZTemplateListQuerySchema>;

export const ZTemplateListReplySchema = z.object({
  data: z.object({
    data: z.array(ZPaymentTemplateSchema),
    pagination: ZOffsetPaginationSchema,
  }),
});
export type TemplateListReply = z.infer<typeof ZTemplateListReplySchema>;

/**
 * The plan a device is paid on: its own (own: true, assigned to that device
 * alone) or else its customer's. Null where a device has neither.
 */
export const ZDevicePlanSchema = z.object({
  template_id: z.number().int(),
  template_name: z.string(),
  daily_price: ZMoneySchema,
  currency: z.string(),
  own: z.boolean(),
});
export type DevicePlan = z.infer<typeof ZDevicePlanSchema>;

/** GET /payments/templates/summary */
export const ZTemplateSummarySchema = z.object({
  total_templates: z.number().int(),
  /** Mean daily_price of the organization's templates ("0.00" when there are none); currencies are not converted. */
  average_daily_price: ZMoneySchema,
  /** Customers with an active template assignment. */
  customers_on_templates: z.number().int(),
});
export type TemplateSummary = z.infer<typeof ZTemplateSummarySchema>;

/**
 * How a template performs, from the payments ledger and the devices.
 * A payment counts for a template when it is successful (status success or
 * completed) and was paid while its customer was on the template: between
 * that assignment's assigned_at and its ended_at (or now, if active). A
 * device's own plan counts the payments on that device; the customer's plan
 * does not count a payment on a device that was on a plan of its own then.
 */
export const ZTemplatePerformanceSchema = z.object({
  template_id: z.number().int(),
  template_name: z.string(),
  currency: ZCurrencySchema,
  daily_price: ZMoneySchema,
  /** Customers on this template now: as their plan, or as the plan of one of their devices. */
  customers_assigned: z.number().int(),
  /** Sum of the payments that count for this template (see above). */
  revenue_collected: ZMoneySchema,
  /** Number of those payments. */
  payments_count: z.number().int(),
  /** Mean days bought (payments.days_bought) per payment that counts, one decimal; 0 without payments. */
  average_days_bought: z.number(),
  /** Devices paid on this template now: their own plan, else their customer's. */
  devices_assigned: z.number().int(),
  /** Of those, devices paid up to date: credit_until still in the future, or paid off. */
  devices_paid_up: z.number().int(),
  /** devices_paid_up / devices_assigned as a fraction from 0 to 1 (4 decimals); 0 without devices. */
  paid_up_share: z.number(),
});
export type TemplatePerformance = z.infer<typeof ZTemplatePerformanceSchema>;

/** GET /payments/templates/performance: every template, newest first. */
export const ZTemplatePerformanceListReplySchema = z.object({ data: z.array(ZTemplatePerformanceSchema) });
export type TemplatePerformanceListReply = z.infer<typeof ZTemplatePerformanceListReplySchema>;

/** GET /payments/templates/{id}/performance */
export const ZTemplatePerformanceReplySchema = z.object({ data: ZTemplatePerformanceSchema });
export type TemplatePerformanceReply = z.infer<typeof ZTemplatePerformanceReplySchema>;

/** GET /payments/templates/{id}/usage */
export const ZTemplateUsageReplySchema = z.object({
  data: z.object({
    template_id: z.number().int(),
    template_name: z.string(),
    /** Customers on this template now. */
    active_assignments: z.number().int(),
    /** Assignments that were replaced by another template (history). */
    ended_assignments: z.number().int(),
    /** Distinct customers who were ever on this template. */
    customers_ever: z.number().int(),
    /** Assignments made per calendar month (of the installation's TIME_ZONE) over the last 12 months, oldest first, months without any included as 0. */
    assignments_by_month: z.array(z.object({ month: z.string(), assignments: z.number().int() })),
  }),
});
export type TemplateUsageReply = z.infer<typeof ZTemplateUsageReplySchema>;

/**
 * POST /payments/templates/assign. A customer has one active template, the
 * plan of all their devices: assigning another ends the current assignment
 * (kept as history); the same template again changes nothing.
 *
 * With serial_number, the plan is that device's own (the device must be
 * assigned to the customer): it wins over the customer's plan for that
 * device alone, so a customer can pay for two devices on two plans. A
 * device has one active plan of its own at most, ended in the same way, and
 * when the device goes to another customer.
 */
export const ZTemplateAssignSchema = z
  .object({
    customer_id: zIdInput,
    template_id: zIdInput,
    serial_number: zOptionalText(100),
    start_date: zStrictDate,
    end_date: zStrictDate,
    notes: zOptionalText(1000),
    organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
  })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.end_date < v.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
    }
  });
export type TemplateAssignInput = z.input<typeof ZTemplateAssignSchema>;
export type TemplateAssignParsed = z.output<typeof ZTemplateAssignSchema>;

export const ZTemplateAssignmentSchema = z.object({
  assignment_id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  template_id: z.number().int(),
  template_name: z.string(),
  /** The device whose own plan this is; null for the customer's plan (all their devices without one of their own). */
  item_id: z.number().int().nullable(),
  serial_number: z.string().nullable(),
  /** YYYY-MM-DD */
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  notes: z.string().nullable(),
  is_active: z.boolean(),
  assigned_by: z.string().nullable(),
  assigned_at: z.string(),
  ended_at: z.string().nullable(),
});
export type TemplateAssignment = z.infer<typeof ZTemplateAssignmentSchema>;

export const ZTemplateAssignReplySchema = z.object({
  message: z.string(),
  /** False when the customer (or the device, with serial_number) was already on this template (nothing changed). */
  changed: z.boolean(),
  assignment: ZTemplateAssignmentSchema,
});
export type TemplateAssignReply = z.infer<typeof ZTemplateAssignReplySchema>;

/**
 * POST /payments/templates/assignments/{id}/end: ends a device's own plan
 * (kept as history); the device is then paid on its customer's plan. A
 * customer's plan is not ended this way but changed by assigning another.
 */
export const ZTemplateAssignmentEndReplySchema = z.object({
  message: z.string(),
  assignment: ZTemplateAssignmentSchema,
});
export type TemplateAssignmentEndReply = z.infer<typeof ZTemplateAssignmentEndReplySchema>;

/** GET /payments/templates/assignments: newest first (the Assignments tab). */
export const ZTemplateAssignmentsQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  offset: zQueryOffset(),
  template_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
  customer_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
  /** true: only active assignments; false: only ended ones; absent: both. */
  active: zQueryBool,
});
export type TemplateAssignmentsQuery = z.input<typeof ZTemplateAssignmentsQuerySchema>;

export const ZTemplateAssignmentsReplySchema = z.object({
  data: z.array(ZTemplateAssignmentSchema),
  pagination: ZOffsetPaginationSchema,
});
export type TemplateAssignmentsReply = z.infer<typeof ZTemplateAssignmentsReplySchema>;
