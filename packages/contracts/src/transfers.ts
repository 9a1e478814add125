import { z } from 'zod';
import { ZMoneySchema } from './common.js';
import { zOverrideReason } from './credit-check.js';
import { zIdInput, zRequiredText } from './fields.js';
import { ZItemSchema } from './items.js';

/**
 * An account transfer: the customer who has a device on credit died, moved
 * away or sold it on, and another customer takes over its payments. The
 * device keeps its account: what was paid on it, its credit and the days it
 * was bought, an activation or a payoff, the day the account began (so what
 * its plan expects by today is unchanged), its token count and its plan (the
 * plan it was paid on becomes the device's own plan of the new holder). No
 * code is needed: the device runs as before. It is no sale: no new account,
 * no device given in the Agent, Commission, Documents or Portfolio reports;
 * the new holder is checked against the follow-on sales rule like anyone
 * taking on a device on credit. Owners and admins (README "Account
 * transfers").
 */
export const ZItemTransferSchema = z.object({
  item_serial_number: zRequiredText(100),
  /** Who takes the account over: another customer of the organization. */
  customer_id: zIdInput,
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(3, { error: 'must say why, in at least 3 characters' })
    .max(200, { error: 'must be at most 200 characters' }),
  override_reason: zOverrideReason,
});
export type ItemTransferInput = z.input<typeof ZItemTransferSchema>;

const ZHolder = z.object({ customer_id: z.number().int(), customer_name: z.string() });

export const ZItemTransferReplySchema = z.object({
  message: z.string(),
  from: ZHolder,
  to: ZHolder,
  /** What had been paid on the account when it passed: part of the new holder's total paid, not their payments. */
  paid_before: ZMoneySchema,
  /** The plan the account goes on being paid on (the device's own plan now), or null when it had none. */
  template_id: z.number().int().nullable(),
  template_name: z.string().nullable(),
  item: ZItemSchema,
});
export type ItemTransferReply = z.infer<typeof ZItemTransferReplySchema>;

/** The account a device holds, when its holder took it over from another customer (an account transfer); on the device's page. */
export const ZTransferredSchema = z.object({
  from_customer_id: z.number().int(),
  from_customer_name: z.string(),
  /** What had been paid on the account when it passed (part of the device's total paid, none of it the holder's payments). */
  paid: ZMoneySchema,
  transferred_at: z.string(),
  transferred_by: z.string().nullable(),
  reason: z.string(),
});
export type Transferred = z.infer<typeof ZTransferredSchema>;
