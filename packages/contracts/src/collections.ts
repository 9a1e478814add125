import { z } from 'zod';
import { ZMoneySchema, ZPagePaginationSchema, zQueryInt } from './common.js';
import { zOptionalText, zQueryChoice, zStrictDate } from './fields.js';
import { ZTicketCategorySchema, ZTicketStatusSchema } from './tickets.js';

/**
 * How long a device has been without credit, in whole days (24 hours each)
 * since its credit ran out, or since it was given to its customer when no
 * payment has bought it any days yet.
 */
export const COLLECTION_BUCKETS = ['0-7', '8-30', '31-90', 'over-90'] as const;
export const ZCollectionBucketSchema = z.enum(COLLECTION_BUCKETS);
export type CollectionBucket = z.infer<typeof ZCollectionBucketSchema>;

/** Each bucket's days without credit, both ends included (null: no upper end). */
export const COLLECTION_BUCKET_DAYS: Record<CollectionBucket, { min: number; max: number | null }> = {
  '0-7': { min: 0, max: 7 },
  '8-30': { min: 8, max: 30 },
  '31-90': { min: 31, max: 90 },
  'over-90': { min: 91, max: null },
};

/** The Collections screen's labels for the buckets. */
export const COLLECTION_BUCKET_LABELS: Record<CollectionBucket, string> = {
  '0-7': '0–7 days',
  '8-30': '8–30 days',
  '31-90': '31–90 days',
  'over-90': 'Over 90 days',
};

export const COLLECTION_BUCKET_FILTERS = ['all', ...COLLECTION_BUCKETS] as const;

/** The sales agent of customers without one, as the Agent report names them, and as the agent filter takes them. */
export const NO_AGENT = '(no agent)';

/**
 * One sales agent's accounts only: the customers' agent_id as the Agent
 * report shows it (trimmed, exact), or NO_AGENT for customers without one.
 */
export const zAgentFilter = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' })
    .optional();

/**
 * GET /collections: the devices out of credit (assigned, not paid off, the
 * days bought so far run out), the most recently run out first: those are
 * the customers most likely to pay again when called. `bucket` keeps one
 * band of days without credit, `agent` one sales agent's customers (a field
 * agent's own worklist).
 */
export const ZCollectionsQuerySchema = z.object({
  // With at most 100 per page, page 10,000,000 starts below MAX_OFFSET.
  page: zQueryInt({ default: 1, min: 1, max: 10_000_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  bucket: zQueryChoice(COLLECTION_BUCKET_FILTERS, 'all'),
  agent: zAgentFilter(),
});
export type CollectionsQuery = z.input<typeof ZCollectionsQuerySchema>;

/** GET /collections/export: the same devices as CSV, every page. */
export const ZCollectionsExportQuerySchema = ZCollectionsQuerySchema.pick({ bucket: true, agent: true });

/** GET /collections/summary: the whole organization's, or one agent's. */
export const ZCollectionsSummaryQuerySchema = z.object({ agent: zAgentFilter() });

/** GET /collections/agents: the sales agents with open accounts, by name (NO_AGENT last, when some customers have none). */
export const MAX_AGENTS_LISTED = 500;
export const ZCollectionAgentsReplySchema = z.object({
  data: z.object({
    agents: z.array(z.string()),
    /** More agents than MAX_AGENTS_LISTED have open accounts: the first are listed. */
    truncated: z.boolean(),
  }),
});
export type CollectionAgentsReply = z.infer<typeof ZCollectionAgentsReplySchema>;

/**
 * What came of calling (or visiting) a customer about a device out of
 * credit. promised_to_pay carries the day the customer said they would pay.
 */
export const CONTACT_OUTCOMES = ['promised_to_pay', 'reached', 'no_answer', 'wrong_number', 'refused', 'device_problem', 'other'] as const;
export const ZContactOutcomeSchema = z.enum(CONTACT_OUTCOMES);
export type ContactOutcome = z.infer<typeof ZContactOutcomeSchema>;

export const CONTACT_OUTCOME_LABELS: Record<ContactOutcome, string> = {
  promised_to_pay: 'Promised to pay',
  reached: 'Reached, no promise',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
  refused: 'Refused to pay',
  device_problem: 'Device problem',
  other: 'Other',
};

/** How far ahead a promised payment day may be. */
export const MAX_PROMISE_DAYS = 90;

/**
 * POST /collections/{item_id}/contacts: a call or visit about the device,
 * logged by the signed-in user. promised_on (YYYY-MM-DD) is required for
 * promised_to_pay, from today (the business day) to MAX_PROMISE_DAYS ahead,
 * and refused for any other outcome.
 */
export const ZContactInputSchema = z
  .object({
    outcome: z.enum(CONTACT_OUTCOMES, { error: `must be one of ${CONTACT_OUTCOMES.join(', ')}` }),
    note: zOptionalText(500),
    promised_on: zStrictDate,
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'promised_to_pay' && !v.promised_on) {
      ctx.addIssue({ code: 'custom', path: ['promised_on'], message: 'is required when the customer promised to pay' });
    }
    if (v.outcome !== 'promised_to_pay' && v.promised_on) {
      ctx.addIssue({ code: 'custom', path: ['promised_on'], message: 'is only for a promise to pay' });
    }
  });
export type ContactInput = z.input<typeof ZContactInputSchema>;

/**
 * A promise to pay, as the Promises list sees it: the device's latest
 * promise with its current customer (an earlier one was rescheduled by it),
 * judged by the device's first successful payment since the promise was
 * logged:
 * - kept: paid by the end of the promised day (the business day);
 * - paid_late: paid, but after the promised day;
 * - due: not paid yet, and the promised day is today;
 * - upcoming: not paid yet, the promised day still ahead;
 * - broken: not paid, and the promised day has passed.
 */
export const PROMISE_STATUSES = ['due', 'broken', 'upcoming', 'kept', 'paid_late'] as const;
export const ZPromiseStatusSchema = z.enum(PROMISE_STATUSES);
export type PromiseStatus = z.infer<typeof ZPromiseStatusSchema>;
export const PROMISE_STATUS_FILTERS = ['all', ...PROMISE_STATUSES] as const;

export const PROMISE_STATUS_LABELS: Record<PromiseStatus, string> = {
  due: 'Due today',
  broken: 'Broken',
  upcoming: 'Upcoming',
  kept: 'Kept',
  paid_late: 'Paid late',
};

export const ZContactSchema = z.object({
  contact_id: z.number().int(),
  item_id: z.number().int(),
  customer_id: z.number().int(),
  outcome: ZContactOutcomeSchema,
  note: z.string().nullable(),
  /** The day the customer promised to pay (YYYY-MM-DD), for promised_to_pay. */
  promised_on: z.string().nullable(),
  /** Who logged it (username), null once that user is deleted. */
  contacted_by: z.string().nullable(),
  created_at: z.string(),
  /** For a promise to pay: the device's first successful payment since it was logged (null: none yet, or another outcome). */
  paid_at: z.string().nullable(),
  /**
   * For a promise to pay: how it stands, as the Promises list judges it
   * (PROMISE_STATUSES; a promise rescheduled by a newer one keeps the payment
   * it had then); null for other outcomes.
   */
  promise_status: ZPromiseStatusSchema.nullable(),
});
export type Contact = z.infer<typeof ZContactSchema>;

export const ZContactReplySchema = z.object({ data: ZContactSchema });
export type ContactReply = z.infer<typeof ZContactReplySchema>;

/** GET /collections/{item_id}/contacts: the device's contacts with its current customer, newest first (at most 100). */
export const ZContactListReplySchema = z.object({ data: z.array(ZContactSchema) });
export type ContactListReply = z.infer<typeof ZContactListReplySchema>;

/** A device out of credit, with whom to call about it. */
export const ZCollectionAccountSchema = z.object({
  item_id: z.number().int(),
  serial_number: z.string(),
  product_name: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  phone_number: z.string().nullable(),
  /** The customer asked for no texts (STOP): call them, do not text them. */
  sms_opted_out: z.boolean(),
  /** When the days bought ran out; null when no payment has bought any yet. */
  credit_until: z.string().nullable(),
  /** credit_until, else when the device was given to the customer. */
  out_of_credit_since: z.string(),
  /** Whole days since out_of_credit_since. */
  days_without_credit: z.number().int(),
  bucket: ZCollectionBucketSchema,
  /** The device's last successful payment. */
  last_payment_at: z.string().nullable(),
  last_payment_amount: ZMoneySchema.nullable(),
  /** Paid on this device so far. */
  total_paid: ZMoneySchema,
  /** The customer's active payment plan: its price per day and currency (null without one). */
  template_name: z.string().nullable(),
  daily_price: ZMoneySchema.nullable(),
  currency: z.string().nullable(),
  /** Left to pay off the device, as GET /customers/{id}/status has it (null without a payoff price). */
  remaining: ZMoneySchema.nullable(),
  /** The last call or visit about the device with this customer (POST /collections/{item_id}/contacts), if any. */
  last_contact: ZContactSchema.nullable(),
  /**
   * The device's newest service ticket not yet resolved (GET /tickets): a customer whose device is being repaired is
   * not chased for payment before it works again.
   */
  open_ticket: z
    .object({ ticket_id: z.number().int(), category: ZTicketCategorySchema, status: ZTicketStatusSchema, opened_at: z.string() })
    .nullable(),
});
export type CollectionAccount = z.infer<typeof ZCollectionAccountSchema>;

export const ZCollectionsReplySchema = z.object({
  data: z.object({
    items: z.array(ZCollectionAccountSchema),
    pagination: ZPagePaginationSchema,
  }),
});
export type CollectionsReply = z.infer<typeof ZCollectionsReplySchema>;

/** GET /collections/summary: how many devices are in each bucket. */
export const ZCollectionsSummaryReplySchema = z.object({
  data: z.object({
    /** Devices given to customers and not yet paid off. */
    open_accounts: z.number().int(),
    /** Of them, the devices out of credit now: the sum of the buckets. */
    out_of_credit: z.number().int(),
    buckets: z.array(
      z.object({
        bucket: ZCollectionBucketSchema,
        label: z.string(),
        devices: z.number().int(),
        /** Left to pay on the band's devices (each device's payoff price − its total paid; one without a payoff price counts 0). */
        outstanding: ZMoneySchema,
      }),
    ),
    /** Left to pay on all the open accounts, in credit or not (amounts of different currencies are not converted). */
    outstanding: ZMoneySchema,
    /**
     * Portfolio at risk, 30 days (PAR30): the share of `outstanding` on devices
     * out of credit for over 30 days, from 0 to 1 (4 decimals); 0 when nothing is outstanding.
     */
    portfolio_at_risk_30: z.number().min(0).max(1),
    /** When these counts were taken (a large organization's are kept up to a minute). */
    as_of: z.string(),
    /** Today's business day (YYYY-MM-DD, the installation's TIME_ZONE): the first day a promise to pay may name. */
    today: z.string(),
  }),
});
export type CollectionsSummaryReply = z.infer<typeof ZCollectionsSummaryReplySchema>;

/**
 * The Promises list covers the promises whose day is at most this many days
 * ago (a promise can name a day at most MAX_PROMISE_DAYS ahead): an older
 * broken promise is a device long out of credit, which the Over 90 days band
 * of Collections lists.
 */
export const PROMISE_WINDOW_DAYS = 90;

/**
 * GET /collections/promises: the promises of `status` (all of them for
 * 'all'). Upcoming and due ones come soonest day first; the others the most
 * recent day first.
 */
export const ZPromisesQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  status: zQueryChoice(PROMISE_STATUS_FILTERS, 'all'),
});
export type PromisesQuery = z.input<typeof ZPromisesQuerySchema>;

export const ZPromiseSchema = z.object({
  /** The contact that logged the promise (its promised_on is the day promised). */
  contact: ZContactSchema,
  status: ZPromiseStatusSchema,
  item_id: z.number().int(),
  serial_number: z.string(),
  product_name: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  phone_number: z.string().nullable(),
  /** The customer asked for no texts (STOP). */
  sms_opted_out: z.boolean(),
  /** Whole days the device has been without credit, as on Collections; null while it has credit (or is paid off). */
  days_without_credit: z.number().int().nullable(),
  /** The device's first successful payment since the promise was logged (null: none yet). */
  paid_at: z.string().nullable(),
  paid_amount: ZMoneySchema.nullable(),
});
export type PromiseRow = z.infer<typeof ZPromiseSchema>;

export const ZPromisesReplySchema = z.object({
  data: z.object({
    items: z.array(ZPromiseSchema),
    pagination: ZPagePaginationSchema,
  }),
});
export type PromisesReply = z.infer<typeof ZPromisesReplySchema>;

/** GET /collections/promises/summary: the promises in the list, by status, and how many were kept. */
export const ZPromisesSummaryReplySchema = z.object({
  data: z.object({
    /** Today's business day (YYYY-MM-DD). */
    today: z.string(),
    /** The oldest promised day counted (today − PROMISE_WINDOW_DAYS). */
    from: z.string(),
    counts: z.object({ due: z.number().int(), broken: z.number().int(), upcoming: z.number().int(), kept: z.number().int(), paid_late: z.number().int() }),
    /** Percent of the promises settled (kept, paid late or broken) that were kept, one decimal; null when none are settled. */
    kept_rate: z.number().nullable(),
  }),
});
export type PromisesSummaryReply = z.infer<typeof ZPromisesSummaryReplySchema>;

/**
 * What a text to a band of Collections may carry, each filled in for its
 * device: {name} is the customer's first name, {remaining} and {daily_price}
 * an amount with its currency ("KES 12,400.00"; empty without a plan).
 */
export const BAND_SMS_PLACEHOLDERS = {
  name: "The customer's first name",
  full_name: "The customer's full name",
  serial: "The device's serial number (the account number to pay to)",
  days: 'Days without credit',
  remaining: 'What is left to pay on the device',
  daily_price: "The plan's price of a day",
} as const;
export type BandSmsPlaceholder = keyof typeof BAND_SMS_PLACEHOLDERS;
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The {words} in a text that are not among `allowed` (a band's placeholders unless told), once each. */
export function unknownPlaceholders(text: string, allowed: Readonly<Record<string, string>> = BAND_SMS_PLACEHOLDERS): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((k) => !(k in allowed)))];
}

/** The message of a text naming {words} that are not among `allowed`: "{x} is not a placeholder: use {name}, ..." */
export function unknownPlaceholdersMessage(unknown: string[], allowed: Readonly<Record<string, string>>): string {
  return `${unknown.map((k) => `{${k}}`).join(', ')} ${unknown.length > 1 ? 'are not placeholders' : 'is not a placeholder'}: use ${Object.keys(allowed)
    .map((k) => `{${k}}`)
    .join(', ')}`;
}

/** A text to many, up to 1,000 characters, whose {words} are all among `allowed` (the placeholders filled in for each). */
export const zPlaceholderText = (allowed: Readonly<Record<string, string>>) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(1000, { error: 'must be at most 1000 characters' })
    .superRefine((s, ctx) => {
      const unknown = unknownPlaceholders(s, allowed);
      if (unknown.length) ctx.addIssue({ code: 'custom', message: unknownPlaceholdersMessage(unknown, allowed) });
    });

/** The text for one device: each placeholder replaced by its value, the spaces an empty one leaves closed up. */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text
    .replace(PLACEHOLDER, (whole, key: string) => (key in values ? values[key]! : whole))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The most devices one text to a band goes to: a larger band is texted a narrower band at a time. */
export const MAX_BAND_SMS = 10_000;

/**
 * POST /collections/sms: one text to every device of a band of days without
 * credit (all of them for 'all'), each filled in for its device and customer.
 * dry_run counts and shows the first few without queueing anything.
 */
export const ZBandSmsSchema = z.object({
  bucket: z.enum(COLLECTION_BUCKET_FILTERS, { error: `must be one of ${COLLECTION_BUCKET_FILTERS.join(', ')}` }),
  /** Only the band's devices of this sales agent's customers (NO_AGENT: of customers without one). */
  agent: zAgentFilter(),
  text: zPlaceholderText(BAND_SMS_PLACEHOLDERS),
  dry_run: z.boolean({ error: 'must be true or false' }).default(false),
});
export type BandSmsInput = z.input<typeof ZBandSmsSchema>;

export const ZBandSmsReplySchema = z.object({
  message: z.string(),
  bucket: z.enum(COLLECTION_BUCKET_FILTERS),
  agent: z.string().nullable(),
  dry_run: z.boolean(),
  /** Devices of the band whose customer has a phone number: one SMS text each. */
  recipients: z.number().int(),
  /** Devices of the band whose customer has no phone number. */
  skipped_no_phone: z.number().int(),
  /** Devices of the band whose customer asked for no texts (STOP): passed over. */
  skipped_opted_out: z.number().int(),
  /** Devices of the band with a service ticket not resolved yet: their customer is not asked to pay for a device being repaired. */
  skipped_open_ticket: z.number().int(),
  /** SMS parts in all (what the provider bills). */
  parts: z.number().int(),
  /** Queued now (0 on a dry run). */
  queued: z.number().int(),
  /** The first few texts as they go out. */
  sample: z.array(
    z.object({ serial_number: z.string(), customer_name: z.string(), recipient_number: z.string(), text: z.string(), parts: z.number().int() }),
  ),
});
export type BandSmsReply = z.infer<typeof ZBandSmsReplySchema>;
