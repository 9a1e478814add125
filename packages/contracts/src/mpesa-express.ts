import { z } from 'zod';
import { ZMoneySchema, ZPagePaginationSchema, zQueryInt } from './common.js';
import { zIdInput, zRequiredText, zSearchTerm } from './fields.js';

/**
 * M-Pesa Express (Safaricom's "Lipa na M-Pesa Online", the STK push): staff
 * ask a customer to pay from the back office, and the customer's phone shows
 * M-Pesa's prompt for the amount, to the organization's paybill or till, with
 * the device's serial number as the account. The customer enters their PIN;
 * Safaricom posts the result to the installation, and a paid request goes
 * through the same payment pipeline as every mobile-money payment (days,
 * tokens, the reply SMS, webhooks), recorded once by its M-Pesa receipt.
 */

export const MPESA_EXPRESS_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type MpesaExpressEnvironment = (typeof MPESA_EXPRESS_ENVIRONMENTS)[number];
/** Where each environment's API is. */
export const MPESA_EXPRESS_BASE_URLS: Record<MpesaExpressEnvironment, string> = {
  sandbox: 'https://sandbox.safaricom.co.ke',
  production: 'https://api.safaricom.co.ke',
};

/** A paybill (the account is the serial number) or a till (Buy Goods: the till number receives the money). */
export const MPESA_EXPRESS_TRANSACTION_TYPES = ['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'] as const;
export type MpesaExpressTransactionType = (typeof MPESA_EXPRESS_TRANSACTION_TYPES)[number];
export const MPESA_EXPRESS_TRANSACTION_TYPE_LABELS: Record<MpesaExpressTransactionType, string> = {
  CustomerPayBillOnline: 'Paybill',
  CustomerBuyGoodsOnline: 'Till (Buy Goods)',
};

/** The most M-Pesa takes in one transaction, in shillings. */
export const MPESA_EXPRESS_MAX_AMOUNT = 250_000;
/** M-Pesa shows at most this many characters of the account reference on the customer's phone. */
export const MPESA_EXPRESS_ACCOUNT_REFERENCE_MAX = 12;
/**
 * A request M-Pesa has not answered for this long is shown as expired (the customer's prompt has long timed out).
 * An answer that comes later is still recorded: the money is real.
 */
export const MPESA_EXPRESS_EXPIRES_AFTER_S = 180;

const digits = (min: number, max: number, what: string) =>
  z
    .string({ error: 'is required' })
    .trim()
    .regex(new RegExp(`^\\d{${min},${max}}$`), { error: `must be ${what} (${min} to ${max} digits)` });
const secret = z.string({ error: 'must be text' }).trim().max(200, { error: 'must be at most 200 characters' });

/**
 * PUT /settings/mpesa-express. consumer_key, consumer_secret and passkey are
 * Safaricom's (the Daraja app's keys and the Lipa na M-Pesa Online passkey):
 * each left out, empty, or sent back masked as GET gave it, keeps its stored
 * value; the first time all three are required.
 */
export const ZMpesaExpressInputSchema = z
  .object({
    environment: z.enum(MPESA_EXPRESS_ENVIRONMENTS, { error: `must be one of ${MPESA_EXPRESS_ENVIRONMENTS.join(', ')}` }),
    short_code: digits(5, 7, 'the paybill or store number'),
    transaction_type: z
      .enum(MPESA_EXPRESS_TRANSACTION_TYPES, { error: `must be one of ${MPESA_EXPRESS_TRANSACTION_TYPES.join(', ')}` })
      .default('CustomerPayBillOnline'),
    /** Buy Goods only: the till number that receives the money (the short code is the store number). */
    till_number: z.preprocess((v) => (v === '' || v === null ? undefined : v), digits(5, 7, 'a till number').optional()),
    consumer_key: secret.optional(),
    consumer_secret: secret.optional(),
    passkey: secret.optional(),
    is_active: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.transaction_type === 'CustomerBuyGoodsOnline' && !v.till_number) {
      ctx.addIssue({ code: 'custom', path: ['till_number'], message: 'is required for a till (CustomerBuyGoodsOnline)' });
    }
  });
export type MpesaExpressInput = z.input<typeof ZMpesaExpressInputSchema>;

/** GET /settings/mpesa-express: the organization's M-Pesa Express set-up, secrets masked. */
export const ZMpesaExpressSettingsSchema = z.object({
  configured: z.boolean(),
  is_active: z.boolean(),
  environment: z.enum(MPESA_EXPRESS_ENVIRONMENTS),
  short_code: z.string().nullable(),
  transaction_type: z.enum(MPESA_EXPRESS_TRANSACTION_TYPES),
  till_number: z.string().nullable(),
  consumer_key: z.string().nullable(),
  consumer_secret: z.string().nullable(),
  passkey: z.string().nullable(),
  /** Where Safaricom posts each request's result (each request adds its own secret path): PUBLIC_URL + /payg/external/mpesa-express/…; null without PUBLIC_URL. */
  callback_base: z.string().nullable(),
  /** True when staff can send payment requests now. */
  ready: z.boolean(),
  /** Why not, when not ready. */
  problem: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type MpesaExpressSettings = z.infer<typeof ZMpesaExpressSettingsSchema>;

/** POST /settings/mpesa-express/test: the keys tried against Safaricom (an access token asked for). */
export const ZMpesaExpressTestReplySchema = z.object({ ok: z.boolean(), message: z.string() });
export type MpesaExpressTestReply = z.infer<typeof ZMpesaExpressTestReplySchema>;

/**
 * A phone M-Pesa Express can prompt: a Kenyan mobile number, written 07…, 01…, +254… or 254…, with spaces or
 * dashes; given as 2547XXXXXXXX or 2541XXXXXXXX.
 */
export function mpesaPhone(raw: string): string | null {
  const d = raw.replace(/[\s\-().]/g, '');
  const m = /^(?:\+?254|0)?([17]\d{8})$/.exec(d);
  return m ? `254${m[1]}` : null;
}

/**
 * Who prompts the customer's phone: M-Pesa Express (Safaricom, Kenya), MTN MoMo's Request to Pay (the Collections
 * API: Uganda, Rwanda, Zambia, Ghana) or Airtel Money's USSD push (Kenya, Uganda, Tanzania, Rwanda, Zambia, Malawi
 * and more). Each is set up by an owner or admin in Settings.
 */
export const PAYMENT_REQUEST_PROVIDERS = ['mpesa_express', 'mtn_momo', 'airtel_money'] as const;
export type PaymentRequestProvider = (typeof PAYMENT_REQUEST_PROVIDERS)[number];
export const PAYMENT_REQUEST_PROVIDER_LABELS: Record<PaymentRequestProvider, string> = {
  mpesa_express: 'M-Pesa Express',
  mtn_momo: 'MTN MoMo',
  airtel_money: 'Airtel Money',
};
/** The most one MTN MoMo request may ask for, in the market's money (MTN's own limits per wallet apply below it). */
export const MTN_MOMO_MAX_AMOUNT = 10_000_000;

/**
 * POST /payment-requests: ask the customer of a device to pay. phone_number defaults to the customer's phone.
 * M-Pesa Express: amount in whole shillings (it takes no cents), a Kenyan number. MTN MoMo and Airtel Money: the
 * amount in the money of the market set up (at most 2 decimals; whole UGX, RWF, XAF and XOF), a number written as the
 * organization's phone country writes it.
 */
const zProvider = z.enum(PAYMENT_REQUEST_PROVIDERS, { error: `must be one of ${PAYMENT_REQUEST_PROVIDERS.join(', ')}` });
/** An amount to ask for: at least 1, at most 2 decimals (each provider's own limits are checked with it: checkProviderAmount). */
export const zRequestAmount = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: 'must be a number' })
    .min(1, { error: 'must be at least 1' })
    .max(MTN_MOMO_MAX_AMOUNT, { error: `must be at most ${MTN_MOMO_MAX_AMOUNT}` })
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'must have at most 2 decimals' }),
);

/** M-Pesa Express's own limits on an amount: whole shillings, at most MPESA_EXPRESS_MAX_AMOUNT. */
export function checkProviderAmount(v: { provider: PaymentRequestProvider; amount: number }, ctx: z.RefinementCtx): void {
  if (v.provider !== 'mpesa_express') return;
  if (!Number.isInteger(v.amount)) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be whole shillings (M-Pesa Express takes no cents)' });
  } else if (v.amount > MPESA_EXPRESS_MAX_AMOUNT) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: `must be at most ${MPESA_EXPRESS_MAX_AMOUNT} (the most M-Pesa takes at once)` });
  }
}

export const ZPaymentRequestInputSchema = z
  .object({
    serial_number: zRequiredText(100),
    provider: zProvider.default('mpesa_express'),
    amount: zRequestAmount,
    phone_number: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.string({ error: 'must be text' }).trim().max(30, { error: 'must be at most 30 characters' }).optional(),
    ),
  })
  .superRefine((v, ctx) => {
    checkProviderAmount(v, ctx);
    if (v.provider !== 'mpesa_express') return;
    if (v.phone_number && !mpesaPhone(v.phone_number)) {
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: 'must be a Kenyan M-Pesa number (07…, 01… or +254…)' });
    }
  })
  .transform((v) => (v.provider === 'mpesa_express' && v.phone_number ? { ...v, phone_number: mpesaPhone(v.phone_number)! } : v));
export type PaymentRequestInput = z.input<typeof ZPaymentRequestInputSchema>;

/**
 * pending: sent, waiting for the customer; paid: the customer paid (the payment recorded); cancelled: the customer
 * cancelled the prompt; failed: M-Pesa could not take the money (wrong PIN, too little balance, phone unreachable);
 * expired: no answer from M-Pesa within MPESA_EXPRESS_EXPIRES_AFTER_S.
 */
export const PAYMENT_REQUEST_STATUSES = ['pending', 'paid', 'cancelled', 'failed', 'expired'] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];
export const PAYMENT_REQUEST_STATUS_LABELS: Record<PaymentRequestStatus, string> = {
  pending: 'Waiting for the customer',
  paid: 'Paid',
  cancelled: 'Cancelled by the customer',
  failed: 'Failed',
  expired: 'No answer',
};

export const ZPaymentRequestSchema = z.object({
  request_id: z.number().int(),
  /** Who prompted the customer: M-Pesa Express, MTN MoMo or Airtel Money. */
  provider: z.enum(PAYMENT_REQUEST_PROVIDERS),
  item_id: z.number().int(),
  serial_number: z.string(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  /** The phone prompted, digits with the country code: 254XXXXXXXXX for M-Pesa, 256XXXXXXXXX for MTN or Airtel Uganda. */
  phone_number: z.string(),
  amount: ZMoneySchema,
  /** The money asked for: KES for M-Pesa Express, the MTN or Airtel market's (UGX, RWF, ZMW, GHS, TZS, ...; EUR in MTN's sandbox). */
  currency: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  /** What happened, in words (M-Pesa's answer made plain). */
  status_text: z.string(),
  /**
   * M-Pesa's ResultCode and ResultDesc, once it answered; for MTN MoMo no code, and its reason (APPROVAL_REJECTED, EXPIRED, ...) as
   * result_desc; for Airtel Money no code, and Airtel's response code (DP00800001007, ...) or message as result_desc.
   */
  result_code: z.number().int().nullable(),
  result_desc: z.string().nullable(),
  /**
   * Where M-Pesa's answer came from: callback (the result Safaricom posted) or check (staff asked M-Pesa with
   * POST /payment-requests/{request_id}/check; such an answer has no receipt until the result or the payment brings it).
   */
  answered_by: z.enum(['callback', 'check']).nullable(),
  /** The receipt of a paid request (the M-Pesa receipt, MTN's financial transaction id, Airtel Money's transaction id): the payment's transaction code. */
  receipt: z.string().nullable(),
  /** The same receipt for an M-Pesa Express request; null for MTN MoMo and Airtel Money (kept for integrations written before them). */
  mpesa_receipt: z.string().nullable(),
  /** The payment recorded for it, and what it bought. */
  payment_id: z.number().int().nullable(),
  /** What the payment pipeline made of it: processed, duplicate (the payment had arrived another way), unmatched (held for staff). */
  payment_outcome: z.string().nullable(),
  /** What the payment rules made of it: activated, days_added, paid_off; or why it bought no code: below_activation, below_daily_price, no_template. */
  payment_reason: z.string().nullable(),
  days: z.number().int().nullable(),
  token: z.string().nullable(),
  /** The user who sent it; null when the customer did (from_customer_page) or the user has since been removed. */
  requested_by: z.string().nullable(),
  /** Sent by the customer from their own page (Pay Now), to their phone on file. */
  from_customer_page: z.boolean(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type PaymentRequest = z.infer<typeof ZPaymentRequestSchema>;

export const ZPaymentRequestReplySchema = z.object({ data: ZPaymentRequestSchema, message: z.string().optional() });
export type PaymentRequestReply = z.infer<typeof ZPaymentRequestReplySchema>;

/** GET /payment-requests: newest first; one device's (serial_number) or one customer's (customer_id). */
export const ZPaymentRequestsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 10, min: 1, max: 100 }),
  serial_number: zSearchTerm,
  customer_id: z.preprocess((v) => (v === '' ? undefined : v), zIdInput.optional()),
});
export type PaymentRequestsQuery = z.input<typeof ZPaymentRequestsQuerySchema>;

export const ZPaymentRequestsReplySchema = z.object({
  data: z.object({ items: z.array(ZPaymentRequestSchema), pagination: ZPagePaginationSchema }),
});
export type PaymentRequestsReply = z.infer<typeof ZPaymentRequestsReplySchema>;

/**
 * GET /payment-requests/providers (any user): which of the organization's ways to ask a customer to pay are ready,
 * and in what money, so the Ask to Pay dialog offers those that are.
 */
export const ZPaymentRequestProviderSchema = z.object({
  provider: z.enum(PAYMENT_REQUEST_PROVIDERS),
  label: z.string(),
  /** True when staff can send requests with it now. */
  ready: z.boolean(),
  /** Why not, when not ready (not set up, switched off, PUBLIC_URL not set, keys missing). */
  problem: z.string().nullable(),
  /** The money its requests are in. */
  currency: z.string(),
  /** The most one request may ask for, in that money. */
  max_amount: z.number(),
  /** Whether amounts may have cents (M-Pesa Express takes whole shillings). */
  decimals: z.boolean(),
});
export type PaymentRequestProviderInfo = z.infer<typeof ZPaymentRequestProviderSchema>;
export const ZPaymentRequestProvidersReplySchema = z.object({ data: z.array(ZPaymentRequestProviderSchema) });
export type PaymentRequestProvidersReply = z.infer<typeof ZPaymentRequestProvidersReplySchema>;

/** What Safaricom posts to the callback URL (Body.stkCallback); only the fields read are named. */
export const ZMpesaExpressCallbackSchema = z.object({
  Body: z.object({
    stkCallback: z.object({
      MerchantRequestID: z.string().optional(),
      CheckoutRequestID: z.string({ error: 'is required' }),
      ResultCode: z.union([z.number(), z.string()]),
      ResultDesc: z.string().optional(),
      CallbackMetadata: z
        .object({ Item: z.array(z.object({ Name: z.string(), Value: z.union([z.string(), z.number()]).optional() })) })
        .optional(),
    }),
  }),
});
export type MpesaExpressCallback = z.infer<typeof ZMpesaExpressCallbackSchema>;

/** The callback's answer, as Safaricom expects it. */
export const ZMpesaExpressCallbackReplySchema = z.object({ ResultCode: z.number().int(), ResultDesc: z.string() });
export type MpesaExpressCallbackReply = z.infer<typeof ZMpesaExpressCallbackReplySchema>;
