import { z } from 'zod';
import { ZBroughtOverSchema } from './account-imports.js';
import { ZTransferredSchema } from './transfers.js';
import { ZMoneySchema, zQueryInt } from './common.js';
import { SMS_OPT_OUT_SOURCES, ZCustomerDeviceStatusSchema } from './customers.js';
import { ZRepaymentSchema } from './repayment.js';
import { ZDevicePlanSchema } from './templates.js';
import { ZDeviceWarrantySchema } from './warranties.js';
import { periodInOrder, zPeriodDate } from './metrics.js';

/** GET /devices/{serial}/activity?page&limit: one page (default 20) of each history. */
export const ZDeviceActivityQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
});
export type DeviceActivityQuery = z.infer<typeof ZDeviceActivityQuerySchema>;

export const ZDeviceActivityParamsSchema = z.object({
  serial: z.string().trim().min(1, { error: 'is required' }).max(100),
});

export const ZDeviceInfoSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  product_oem: z.string().nullable(),
  manufacturer: z.string().nullable(),
  status: z.string(),
  customer_name: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  /** The device's OpenPAYGO token count (count of the last token issued). */
  token_count: z.number().int(),
  is_assigned: z.boolean(),
  assigned_at: z.string().nullable(),
  price: ZMoneySchema,
  total_paid: ZMoneySchema,
  credit_until: z.string().nullable(),
  /** The plan the device is paid on: its own, else its customer's; null when it has neither. */
  payment_plan: ZDevicePlanSchema.nullable(),
  /** The stock location it is kept at, or was given out from; null for none. */
  location_name: z.string().nullable(),
  /** What its plan expects paid by today, what was paid towards it and the standing (README "Repayment standing"); nulls when unassigned. */
  repayment: ZRepaymentSchema,
  /** Its product's warranty from the day its account began (README "Warranties"); null when unassigned or none is set. */
  warranty: ZDeviceWarrantySchema.nullable(),
  /** What is left to pay on it (its payoff price less what was paid, 0 once paid off); null without a plan or price, or unassigned. */
  remaining: ZMoneySchema.nullable(),
  /** What discounts took off its payoff price on this account (README "Discounts"); 0.00 for none. */
  discount: ZMoneySchema,
  /** Its account, when it was brought over from another system (POST /items/accounts/import); null otherwise. */
  brought_over: ZBroughtOverSchema.nullable(),
  /** Its account, when its holder took it over from another customer (POST /items/transfer); null otherwise. */
  transferred: ZTransferredSchema.nullable(),
});

export const ZTokenHistoryEntrySchema = z.object({
  id: z.number().int(),
  token: z.string(),
  token_type: z.string(),
  days: z.number(),
  amount_paid: ZMoneySchema.nullable(),
  generated_at: z.string(),
  status: z.string(),
  /**
   * False once the device no longer takes it (OpenPAYGO): a newer SET_TIME,
   * unlock or counter sync token, or 16 counts of newer tokens. Shown as Expired.
   */
  is_valid: z.boolean(),
  /** The user who generated it, 'system' for tokens the payment pipeline issued. */
  generated_by: z.string(),
  customer_name: z.string().nullable(),
});
export type TokenHistoryEntry = z.infer<typeof ZTokenHistoryEntrySchema>;

export const ZPaymentHistoryEntrySchema = z.object({
  payment_id: z.number().int(),
  amount: ZMoneySchema,
  paid_at: z.string(),
  status: z.string(),
  customer_name: z.string().nullable(),
  device_serial: z.string().nullable(),
  transaction_code: z.string().nullable(),
  payment_method: z.string(),
});
export type PaymentHistoryEntry = z.infer<typeof ZPaymentHistoryEntrySchema>;

export const ZMessageHistoryEntrySchema = z.object({
  id: z.number().int(),
  received_message: z.string().nullable(),
  forwarded_message: z.string().nullable(),
  recipient_number: z.string().nullable(),
  amount: ZMoneySchema.nullable(),
  received_at: z.string(),
  status: z.string(),
  /** The user who wrote an SMS to the customer; null for replies and reminders. */
  sent_by: z.string().nullable().optional(),
});
export type MessageHistoryEntry = z.infer<typeof ZMessageHistoryEntrySchema>;

const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

export const ZDeviceActivitySchema = z.object({
  data: z.object({
    device_info: ZDeviceInfoSchema,
    token_history: page(ZTokenHistoryEntrySchema),
    payment_history: page(ZPaymentHistoryEntrySchema),
    message_history: page(ZMessageHistoryEntrySchema),
    page: z.number().int(),
    limit: z.number().int(),
  }),
});
export type DeviceActivity = z.infer<typeof ZDeviceActivitySchema>;

/** GET /customers/{id}/payment-details?limit: payment_history is the newest `limit` payments (default 100). */
export const ZPaymentDetailsQuerySchema = z.object({
  limit: zQueryInt({ default: 100, min: 1, max: 1000 }),
});

/**
 * The customer's first device (earliest assigned) gives device_serial,
 * product_name and product_oem, and its plan payment_template (its own,
 * else the customer's; the customer's when they have no device). payment_summary, over the customer's current
 * devices, each with its own payoff price and total paid, as in GET
 * /customers/{id}/status:
 * - total_paid: successful payments (success, completed) of the customer;
 * - free_code_price: the sum of the devices' payoff prices (the active
 *   template's free_code_price, else the device's price), devices without
 *   one left out; "0.00" when none has one;
 * - remaining_balance: the status' balance, the sum of each device's
 *   payoff price − its total paid, never negative, 0 once paid off;
 * - payment_progress: (free_code_price − remaining_balance) / free_code_price
 *   in percent, 2 decimals (each device counts at most its payoff price);
 * - is_fully_paid: the customer has devices and every one has nothing left to
 *   pay (a device without a payoff price never is).
 */
export const ZCustomerPaymentDetailsSchema = z.object({
  data: z.object({
    customer_info: z.object({
      customer_id: z.number().int(),
      customer_name: z.string(),
      phone_contact: z.string(),
      email: z.string().nullable(),
      status: z.string(),
      /** When the customer asked for no texts (STOP), and how ('sms' or 'staff'); null: texts are welcome. */
      sms_opted_out_at: z.string().nullable(),
      sms_opt_out_source: z.enum(SMS_OPT_OUT_SOURCES).nullable(),
      device_serial: z.string().nullable(),
      product_name: z.string().nullable(),
      product_oem: z.string().nullable(),
    }),
    payment_template: z
      .object({
        template_id: z.number().int(),
        template_name: z.string(),
        daily_price: ZMoneySchema,
        activation_price: ZMoneySchema,
        grace_period_days: z.number().int(),
        currency: z.string(),
        deposit_made: ZMoneySchema,
      })
      .nullable(),
    payment_summary: z.object({
      total_paid: ZMoneySchema,
      free_code_price: ZMoneySchema,
      remaining_balance: ZMoneySchema,
      payment_progress: z.number().min(0).max(100),
      is_fully_paid: z.boolean(),
      payment_count: z.number().int(),
      /**
       * What was paid in another system on the devices the customer holds, before their accounts were brought over
       * (README "Bringing accounts over"): in the devices' total paid, not in total_paid; "0.00" for none.
       */
      paid_before: ZMoneySchema,
    }),
    /**
     * The customer's repayment standing: what their devices' plans expect paid by today, what was paid towards it
     * and the share (the devices' `repayment` added up; README "Repayment standing").
     */
    repayment: ZRepaymentSchema,
    payment_history: z.array(ZPaymentHistoryEntrySchema),
    /** The customer's devices now, first assigned first, each with its plan and what is left on it (as in GET /customers/{id}/status). */
    devices: z.array(ZCustomerDeviceStatusSchema),
  }),
});
export type CustomerPaymentDetails = z.infer<typeof ZCustomerPaymentDetailsSchema>;

/** The languages a statement of account is written in: English, Kiswahili. */
export const STATEMENT_LANGUAGES = ['en', 'sw', 'fr'] as const;
export type StatementLanguage = (typeof STATEMENT_LANGUAGES)[number];

/**
 * GET /customers/{id}/statement?from&to: the customer's statement of account,
 * a PDF download (statement-{customer_id}-YYYY-MM-DD.pdf): their devices, each
 * with its plan, what was paid on it and what is left; the payments and the
 * tokens of the period (business days of TIME_ZONE, both ends included;
 * absent ends are open), with the period's total paid; in `language`, by
 * default the customer's (Kiswahili for a customer whose preferred language is
 * Swahili, else English).
 */
export const ZStatementQuerySchema = z
  .object({
    from: zPeriodDate().nullish(),
    to: zPeriodDate().nullish(),
    language: z.enum(STATEMENT_LANGUAGES).nullish(),
  })
  .refine((q) => periodInOrder(q.from, q.to), { error: 'must not be after to', path: ['from'] });
export type StatementQuery = z.infer<typeof ZStatementQuerySchema>;

/**
 * GET /devices/{serial}/agreement?language: the PAYG agreement of a device and
 * the customer who has it, a PDF to print and sign (agreement-{serial}.pdf):
 * the seller, the customer, the device, the plan's terms as the payment rules
 * apply them and the terms of the sale; in `language`, by default the
 * customer's (as the statement).
 */
export const ZAgreementQuerySchema = z.object({ language: z.enum(STATEMENT_LANGUAGES).nullish() });
export type AgreementQuery = z.infer<typeof ZAgreementQuerySchema>;
