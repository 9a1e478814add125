import { z } from 'zod';
import { zQueryInt, ZPagePaginationSchema } from './common.js';
import { zAgentFilter, zPlaceholderText } from './collections.js';
import { MAX_SMS_PARTS } from './messages.js';
import { REPAYMENT_STANDINGS, REPAYMENT_STANDING_LABELS } from './repayment.js';

/**
 * Bulk SMS: one text to a group of the organization's customers (a shop
 * moving, a new product, a price change, an offer to the customers who paid
 * off), now or at a time set ahead, with what became of each text.
 */

/** Whom a text goes to, by the devices they hold. */
export const CAMPAIGN_CUSTOMER_GROUPS = ['all', 'with_device', 'without_device'] as const;
export type CampaignCustomerGroup = (typeof CAMPAIGN_CUSTOMER_GROUPS)[number];
export const CAMPAIGN_CUSTOMER_GROUP_LABELS: Record<CampaignCustomerGroup, string> = {
  all: 'All customers',
  with_device: 'Customers with a device',
  without_device: 'Customers without a device',
};

/** What a bulk text may carry, each filled in for its customer. */
export const CAMPAIGN_SMS_PLACEHOLDERS = {
  name: "The customer's first name",
  full_name: "The customer's full name",
  balance: 'What is left to pay on the devices they hold (KES 4,900.00; empty without a plan)',
  serials: "Their devices' serial numbers, the accounts to pay to (SHS-0042, PHN-3003; empty without one)",
} as const;

/** The most customers one bulk text goes to: a larger group is texted a county, a product or an agent at a time. */
export const MAX_CAMPAIGN_RECIPIENTS = 100_000;
/** How far ahead a text may be set to go out. */
export const MAX_CAMPAIGN_DAYS_AHEAD = 30;

const zOptionalName = (what: string) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .optional()
    .describe(what);

/** The group of customers a bulk text goes to; every filter given narrows it. */
export const ZCampaignAudienceSchema = z.object({
  customers: z
    .enum(CAMPAIGN_CUSTOMER_GROUPS, { error: `must be one of ${CAMPAIGN_CUSTOMER_GROUPS.join(', ')}` })
    .default('with_device'),
  /** Only customers whose repayment standing over the devices they hold is one of these (they hold a device). */
  standing: z
    .array(z.enum(REPAYMENT_STANDINGS, { error: `must be one of ${REPAYMENT_STANDINGS.join(', ')}` }), { error: 'must be a list' })
    .transform((list) => [...new Set(list)])
    .optional(),
  /** Only customers holding a device of this product (its name, whatever the case). */
  product_name: zOptionalName('Only customers holding a device of this product (whatever the case)'),
  /** Only customers of this county (whatever the case). */
  county: zOptionalName('Only customers of this county (whatever the case)'),
  /** Only this sales agent's customers (NO_AGENT: customers without one). */
  agent: zAgentFilter(),
});
export type CampaignAudience = z.output<typeof ZCampaignAudienceSchema>;

/** "Customers with a device, Behind or Far behind, holding a Sun King Home 60, of Nakuru county, of agent AG-7" */
export function audienceText(a: z.input<typeof ZCampaignAudienceSchema>): string {
  const parts: string[] = [CAMPAIGN_CUSTOMER_GROUP_LABELS[a.customers ?? 'with_device']];
  if (a.standing?.length) parts.push(a.standing.map((s) => REPAYMENT_STANDING_LABELS[s]).join(' or '));
  if (a.product_name) parts.push(`holding a ${a.product_name}`);
  if (a.county) parts.push(`of ${a.county} county`);
  if (a.agent) parts.push(a.agent === '(no agent)' ? 'without a sales agent' : `of agent ${a.agent}`);
  return parts.join(', ');
}

/** POST /sms-campaigns: the text, whom to, when; dry_run counts and shows the first three, queueing nothing. */
export const ZCampaignInputSchema = z
  .object({
    audience: ZCampaignAudienceSchema.default({ customers: 'with_device' }),
    text: zPlaceholderText(CAMPAIGN_SMS_PLACEHOLDERS),
    /** When it goes out (ISO 8601 with its offset), up to 30 days ahead; now when absent. */
    send_at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
      .superRefine((s, ctx) => {
        const at = Date.parse(s);
        if (Number.isNaN(at)) return; // said already
        if (at < Date.now() - 60_000) ctx.addIssue({ code: 'custom', message: 'must not be in the past' });
        else if (at > Date.now() + MAX_CAMPAIGN_DAYS_AHEAD * 86_400_000) {
          ctx.addIssue({ code: 'custom', message: `must be within ${MAX_CAMPAIGN_DAYS_AHEAD} days` });
        }
      })
      .optional(),
    dry_run: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .superRefine((v, ctx) => {
    if (v.audience.customers === 'without_device' && (v.audience.standing?.length || v.audience.product_name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['audience', 'customers'],
        message: 'must be all or with_device with a standing or a product: customers without a device have neither',
      });
    }
  });
export type CampaignInput = z.input<typeof ZCampaignInputSchema>;

export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'sent', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

export const ZCampaignSchema = z.object({
  campaign_id: z.number().int(),
  text: z.string(),
  audience: ZCampaignAudienceSchema,
  /** The audience in words. */
  audience_text: z.string(),
  /** When it goes or went out. */
  send_at: z.string(),
  created_at: z.string(),
  created_by: z.string(),
  /** Texts queued when it was made: one per phone number. */
  recipients: z.number().int(),
  /** SMS parts in all (what the provider bills). */
  parts: z.number().int(),
  skipped_no_phone: z.number().int(),
  skipped_opted_out: z.number().int(),
  /** Customers sharing a phone number with one texted already: one text per number. */
  skipped_same_phone: z.number().int(),
  /** scheduled: not yet due; sending: texts still queued; sent: every text sent or failed; cancelled: stopped before all went. */
  status: z.enum(CAMPAIGN_STATUSES),
  delivery: z.object({
    /** Waiting to go (or being sent, or to be tried again). */
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    /** Not sent: the campaign was cancelled first. */
    cancelled: z.number().int(),
  }),
  cancelled_at: z.string().nullable(),
  cancelled_by: z.string().nullable(),
});
export type Campaign = z.infer<typeof ZCampaignSchema>;

export const ZCampaignSampleSchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  recipient_number: z.string(),
  text: z.string(),
  parts: z.number().int(),
});

export const ZCampaignReplySchema = z.object({
  message: z.string(),
  dry_run: z.boolean(),
  audience_text: z.string(),
  /** Customers of the group with a phone number who take texts: one text per phone number. */
  recipients: z.number().int(),
  skipped_no_phone: z.number().int(),
  /** Customers who asked for no texts (STOP): passed over. */
  skipped_opted_out: z.number().int(),
  skipped_same_phone: z.number().int(),
  /** SMS parts in all (what the provider bills). */
  parts: z.number().int(),
  /** The first three texts as they go out. */
  sample: z.array(ZCampaignSampleSchema),
  /** The campaign made (null on a dry run). */
  campaign: ZCampaignSchema.nullable(),
});
export type CampaignReply = z.infer<typeof ZCampaignReplySchema>;

/** GET /sms-campaigns: newest first. */
export const ZCampaignsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
});
export type CampaignsQuery = z.input<typeof ZCampaignsQuerySchema>;

export const ZCampaignsReplySchema = z.object({
  data: z.array(ZCampaignSchema),
  pagination: ZPagePaginationSchema,
});
export type CampaignsReply = z.infer<typeof ZCampaignsReplySchema>;

export const ZCampaignCancelReplySchema = z.object({
  message: z.string(),
  /** Texts taken off the queue now. */
  cancelled: z.number().int(),
  campaign: ZCampaignSchema,
});
export type CampaignCancelReply = z.infer<typeof ZCampaignCancelReplySchema>;

/** What became of one text of a bulk SMS: waiting (or being sent, or to be tried again), sent, failed. */
export const CAMPAIGN_TEXT_STATUSES = ['queued', 'sent', 'failed'] as const;
export type CampaignTextStatus = (typeof CAMPAIGN_TEXT_STATUSES)[number];

/** GET /sms-campaigns/{id}/texts: its texts in the order they were queued; one status (queued takes in those being sent). */
export const ZCampaignTextsQuerySchema = z.object({
  page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
  limit: zQueryInt({ default: 20, min: 1, max: 100 }),
  status: z
    .enum(CAMPAIGN_TEXT_STATUSES, { error: `must be one of ${CAMPAIGN_TEXT_STATUSES.join(', ')}` })
    .optional(),
});
export type CampaignTextsQuery = z.input<typeof ZCampaignTextsQuerySchema>;

export const ZCampaignTextSchema = z.object({
  message_id: z.number().int(),
  recipient_number: z.string().nullable(),
  /** The customer of that phone number now (the first registered when several share it); null when none has it. */
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  text: z.string().nullable(),
  status: z.enum(CAMPAIGN_TEXT_STATUSES),
  attempts: z.number().int(),
  /** Why the last try failed (or why it was not sent); null when it did not. */
  error: z.string().nullable(),
  sent_at: z.string().nullable(),
});
export type CampaignText = z.infer<typeof ZCampaignTextSchema>;

export const ZCampaignTextsReplySchema = z.object({
  data: z.array(ZCampaignTextSchema),
  pagination: ZPagePaginationSchema,
});
export type CampaignTextsReply = z.infer<typeof ZCampaignTextsReplySchema>;

/** The most SMS one bulk text may be, filled in for each customer. */
export const MAX_CAMPAIGN_SMS_PARTS = MAX_SMS_PARTS;
