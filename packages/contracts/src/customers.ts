import { z } from 'zod';
import { ZMoneySchema, ZOffsetPaginationSchema, zQueryInt, zQueryOffset } from './common.js';
import { ZDevicePlanSchema } from './templates.js';
import { ZRepaymentSchema } from './repayment.js';
import { zIdInput, zLenientDate, zOptionalChoice, zOptionalText, zRequiredText, zSearchTerm, zStrictDate } from './fields.js';

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export const MARITAL_STATUSES = ['Single', 'Married', 'Divorced', 'Widowed'] as const;
export const EDUCATION_LEVELS = ['Primary', 'Secondary', 'Diploma', "Bachelor's Degree", "Master's Degree", 'PhD'] as const;
export const LANGUAGES = ['English', 'Swahili', 'French', 'Arabic'] as const;
export const CUSTOMER_TYPES = ['individual', 'business', 'organization'] as const;
export const CUSTOMER_STATUSES = ['active', 'inactive', 'suspended'] as const;

/** A customer's status as the API answers it: one of CUSTOMER_STATUSES, or 'erased' once their personal data was erased (POST /customers/{id}/erase), which no one sets by hand. */
export const CUSTOMER_STATUS_VALUES = [...CUSTOMER_STATUSES, 'erased'] as const;
export const ZCustomerStatusValueSchema = z.enum(CUSTOMER_STATUS_VALUES);
export type CustomerStatusValue = z.infer<typeof ZCustomerStatusValueSchema>;

/** Searchable columns of GET /registered-customers (search_field). */
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

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]{2,}$/;

const zEmail = zOptionalText(254).superRefine((v, ctx) => {
  if (v && !EMAIL.test(v)) ctx.addIssue({ code: 'custom', message: 'must be a valid email address' });
});

/** Digits with the usual separators, at least 7 digits: "0712 345 678", "+254712345678". */
const zPhone = zRequiredText(30).superRefine((v, ctx) => {
  if (!/^\+?[\d\s\-().]+$/.test(v) || v.replace(/\D/g, '').length < 7) {
    ctx.addIssue({ code: 'custom', message: 'must be a phone number (digits, optionally with + and spaces)' });
  }
});

/** A choice with a default: absent, null or empty takes the default. */
const withDefault = <T extends string>(values: readonly T[], fallback: T) =>
  zOptionalChoice(values).transform((v) => v ?? fallback);

/** The profile fields every customer form shares; see ZCustomerInputSchema for the rules. */
const optionalProfile = {
  email: zEmail,
  country: zOptionalText(100),
  gender: zOptionalChoice(GENDERS),
  date_of_birth: zLenientDate,
  marital_status: zOptionalChoice(MARITAL_STATUSES),
  county: zOptionalText(100),
  constituency: zOptionalText(100),
  ward: zOptionalText(100),
  sub_location: zOptionalText(100),
  village: zOptionalText(100),
  postal_address: zOptionalText(200),
  occupation: zOptionalText(100),
  employer_name: zOptionalText(200),
  education_level: zOptionalChoice(EDUCATION_LEVELS),
  agent_id: zOptionalText(64),
};

/**
 * POST /register-customer and POST /add-customer (and each row of
 * POST /upload-csv). Text is trimmed; empty optional fields become null;
 * preferred_language defaults to English, customer_type to individual,
 * status to active; choices are matched without regard to case;
 * date_of_birth is stored as YYYY-MM-DD, or null when it is not a date.
 * organization_id is accepted and ignored: the token's organization is used.
 */
export const ZCustomerInputSchema = z.object({
  customer_name: zRequiredText(200),
  id_number: zRequiredText(50),
  phone_contact: zPhone,
  ...optionalProfile,
  preferred_language: withDefault(LANGUAGES, 'English'),
  customer_type: withDefault(CUSTOMER_TYPES, 'individual'),
  status: withDefault(CUSTOMER_STATUSES, 'active'),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type CustomerInput = z.input<typeof ZCustomerInputSchema>;
export type CustomerInputParsed = z.output<typeof ZCustomerInputSchema>;

/** PUT /customers/{id}: any subset of the fields; same rules; "" or null clears an optional field. */
export const ZCustomerUpdateSchema = z.object({
  customer_name: zRequiredText(200).optional(),
  id_number: zRequiredText(50).optional(),
  phone_contact: zPhone.optional(),
  ...optionalProfile,
  // Registration reads an unparsable date of birth as none; an update must not erase a stored one with it.
  date_of_birth: zStrictDate,
  preferred_language: zOptionalChoice(LANGUAGES).transform((v) => v ?? undefined),
  customer_type: zOptionalChoice(CUSTOMER_TYPES).transform((v) => v ?? undefined),
  status: zOptionalChoice(CUSTOMER_STATUSES).transform((v) => v ?? undefined),
  organization_id: z.unknown().optional().describe('Ignored: the organization comes from the token'),
});
export type CustomerUpdate = z.input<typeof ZCustomerUpdateSchema>;
export type CustomerUpdateParsed = z.output<typeof ZCustomerUpdateSchema>;

/** How a customer opted out of texts: by texting STOP ('sms') or through staff ('staff'). */
export const SMS_OPT_OUT_SOURCES = ['sms', 'staff'] as const;
export type SmsOptOutSource = (typeof SMS_OPT_OUT_SOURCES)[number];

export const ZCustomerSchema = z.object({
  customer_id: z.number().int(),
  organization_id: z.string(),
  customer_name: z.string(),
  id_number: z.string(),
  phone_contact: z.string(),
  email: z.string().nullable(),
  country: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  /** YYYY-MM-DD */
  date_of_birth: z.string().nullable(),
  marital_status: z.enum(MARITAL_STATUSES).nullable(),
  county: z.string().nullable(),
  constituency: z.string().nullable(),
  ward: z.string().nullable(),
  sub_location: z.string().nullable(),
  village: z.string().nullable(),
  postal_address: z.string().nullable(),
  occupation: z.string().nullable(),
  employer_name: z.string().nullable(),
  education_level: z.enum(EDUCATION_LEVELS).nullable(),
  preferred_language: z.enum(LANGUAGES),
  customer_type: z.enum(CUSTOMER_TYPES),
  agent_id: z.string().nullable(),
  status: ZCustomerStatusValueSchema,
  /** When the customer asked for no texts nobody asked for (null: texts are welcome); see ZSmsOptOutReplySchema. */
  sms_opted_out_at: z.string().nullable(),
  /** How they asked: by texting STOP ('sms') or through staff ('staff'). */
  sms_opt_out_source: z.enum(SMS_OPT_OUT_SOURCES).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Customer = z.infer<typeof ZCustomerSchema>;

/**
 * A customer who opted out of texts gets only what they ask for: the code for a payment they make, the answer to
 * BAL, the reply to STOP or START. Payment reminders pass them over, a text to a Collections band skips them and
 * staff cannot text them (409). They opt out by texting STOP (or ACHA) to the business line, or staff record it
 * when they ask (POST /customers/{id}/sms-opt-out, any user); START (or ANZA) from their phone, or an owner or
 * admin when they ask (DELETE /customers/{id}/sms-opt-out), lets texts come again.
 *
 * POST /customers/{id}/sms-opt-out and DELETE: the customer as it now is.
 */
export const ZSmsOptOutReplySchema = z.object({ message: z.string(), customer: ZCustomerSchema });
export type SmsOptOutReply = z.infer<typeof ZSmsOptOutReplySchema>;

/** GET /registered-customers: newest first; search is a case-insensitive partial match on search_field. */
export const ZCustomerListQuerySchema = z.object({
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  offset: zQueryOffset(),
  search_term: zSearchTerm,
  search_field: z.preprocess((v) => (v === undefined || v === '' ? 'customer_name' : v), z.enum(CUSTOMER_SEARCH_FIELDS)),
});
export type CustomerListQuery = z.input<typeof ZCustomerListQuerySchema>;

export const ZCustomerListReplySchema = z.object({
  data: z.array(ZCustomerSchema),
  pagination: ZOffsetPaginationSchema,
});
export type CustomerListReply = z.infer<typeof ZCustomerListReplySchema>;

/** POST /fetch-customer: give one of the three; the phone is matched in its normal form (0712… = +254712…). */
export const ZFetchCustomerSchema = z
  .object({
    customer_id: zIdInput.optional(),
    id_number: zOptionalText(50),
    phone_contact: zOptionalText(30),
  })
  .superRefine((v, ctx) => {
    if (v.customer_id === undefined && !v.id_number && !v.phone_contact) {
      ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'give customer_id, id_number or phone_contact' });
    }
  });
export type FetchCustomerInput = z.input<typeof ZFetchCustomerSchema>;

/** A device in GET /customers/{id}/status. */
export const ZCustomerDeviceStatusSchema = z.object({
  serial_number: z.string(),
  product_name: z.string(),
  status: z.string(),
  /** Days of credit left: credit_until − now, one decimal, 0 when it has passed or was never set. */
  days_left: z.number(),
  credit_until: z.string().nullable(),
  paid_off: z.boolean(),
  /** Paid on this device so far. */
  total_paid: ZMoneySchema,
  /** Active template's free_code_price, else the device's price; null when neither is set (never paid off automatically). */
  payoff_price: ZMoneySchema.nullable(),
  /** payoff_price − total_paid, never below 0; "0.00" once paid off; null when there is no payoff price. */
  remaining: ZMoneySchema.nullable(),
  /** The plan the device is paid on: its own, else the customer's; null when it has neither. */
  payment_plan: ZDevicePlanSchema.nullable(),
  /** What its plan expects paid by today, what was paid towards it and the standing (README "Repayment standing"). */
  repayment: ZRepaymentSchema,
});
export type CustomerDeviceStatus = z.infer<typeof ZCustomerDeviceStatusSchema>;

/** GET /customers/{id}/status */
export const ZCustomerStatusReplySchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  status: ZCustomerStatusValueSchema,
  devices: z.array(ZCustomerDeviceStatusSchema),
  /** Sum of the customer's successful payments (status success or completed). */
  total_paid: ZMoneySchema,
  payments_count: z.number().int(),
  /**
   * What was paid in another system on the devices the customer holds, before their accounts were brought over
   * (README "Bringing accounts over"): in the devices' total paid, not in total_paid; "0.00" for none.
   */
  paid_before: ZMoneySchema,
  /** Left to pay off across the customer's devices: the sum of each device's `remaining` (unknown ones count 0). */
  balance: ZMoneySchema,
  /** The customer's repayment standing: the devices' `repayment` added up (README "Repayment standing"). */
  repayment: ZRepaymentSchema,
  /** The customer's active payment template (the plan of their devices without one of their own), if any. */
  template: z
    .object({ template_id: z.number().int(), template_name: z.string(), daily_price: ZMoneySchema, currency: z.string() })
    .nullable(),
});
export type CustomerStatusReply = z.infer<typeof ZCustomerStatusReplySchema>;

/** GET /customers/insights */
export const ZCustomerInsightsSchema = z.object({
  total: z.number().int(),
  by_status: z.object({ active: z.number().int(), inactive: z.number().int(), suspended: z.number().int() }),
  /** Registered in the last 7 days / 30 days (rolling, from now). */
  new_last_7_days: z.number().int(),
  new_last_30_days: z.number().int(),
  /** Customers with at least one device assigned now, and the rest. */
  with_devices: z.number().int(),
  without_devices: z.number().int(),
  /** The 10 counties with the most customers (customers without a county are not counted). */
  top_counties: z.array(z.object({ county: z.string(), count: z.number().int() })),
});
export type CustomerInsights = z.infer<typeof ZCustomerInsightsSchema>;

/** A payment in GET /customers/{id}/payments and GET /payments/customer/{id}/history. */
export const ZCustomerPaymentSchema = z.object({
  payment_id: z.number().int(),
  amount: ZMoneySchema,
  currency: z.string(),
  status: z.enum(['success', 'completed', 'pending', 'failed']),
  payment_method: z.string(),
  transaction_code: z.string().nullable(),
  reference: z.string().nullable(),
  item_serial_number: z.string().nullable(),
  days_bought: z.number().int(),
  paid_at: z.string(),
  created_at: z.string(),
});
export type CustomerPayment = z.infer<typeof ZCustomerPaymentSchema>;

export const ZCustomerPaymentsQuerySchema = z.object({
  limit: zQueryInt({ default: 50, min: 1, max: 500 }),
  offset: zQueryOffset(),
});

/** Newest first (paid_at). */
export const ZCustomerPaymentsReplySchema = z.object({
  data: z.array(ZCustomerPaymentSchema),
  pagination: ZOffsetPaginationSchema,
});
export type CustomerPaymentsReply = z.infer<typeof ZCustomerPaymentsReplySchema>;
