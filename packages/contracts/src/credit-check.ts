import { z } from 'zod';
import { zOptionalText } from './fields.js';
import { REPAYMENT_STANDING_LABELS, ZRepaymentSchema, type RepaymentStanding } from './repayment.js';

/**
 * The follow-on sales rule: whether a customer who already holds devices may
 * be given another one on credit, by their repayment standing (repayment.ts),
 * and whether a customer a device was repossessed from may be given any.
 * Checked on every assignment that starts a new account for the customer
 * (POST /items/assign, POST /onboarding); a device given back to its last
 * holder is no sale and is not checked. An owner or admin can give the device
 * anyway with a reason (override_reason), kept in the activity log.
 *
 * rule:
 * - any: no check (the default);
 * - behind: not to a customer Far behind;
 * - on_track: only to a customer On track or Paid off.
 * A customer without a standing (no device held, or none on a plan with a
 * payoff price) passes the rule: nothing says they are behind.
 */
export const FOLLOW_ON_RULES = ['any', 'behind', 'on_track'] as const;
export type FollowOnRule = (typeof FOLLOW_ON_RULES)[number];

export const FOLLOW_ON_RULE_LABELS: Record<FollowOnRule, string> = {
  any: 'Any customer (no check)',
  behind: 'Not to customers Far behind',
  on_track: 'Only to customers On track or Paid off',
};

/** The standings the rule lets through. */
export const FOLLOW_ON_ALLOWED: Record<FollowOnRule, readonly RepaymentStanding[]> = {
  any: ['paid_off', 'on_track', 'behind', 'far_behind'],
  behind: ['paid_off', 'on_track', 'behind'],
  on_track: ['paid_off', 'on_track'],
};

/** Whether `rule` lets a customer of this standing (null: none) have another device. */
export function followOnAllows(rule: FollowOnRule, standing: RepaymentStanding | null): boolean {
  return standing === null || FOLLOW_ON_ALLOWED[rule].includes(standing);
}

/** The standings the rule lets through, in words: "On track or Paid off". */
export function followOnAllowedText(rule: FollowOnRule): string {
  const names = FOLLOW_ON_ALLOWED[rule].map((s) => REPAYMENT_STANDING_LABELS[s]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The longest reason for giving a device against the rule. */
export const OVERRIDE_REASON_MAX = 500;

/** override_reason of POST /items/assign and POST /onboarding: why an owner or admin gives the device against the rule. */
export const zOverrideReason = zOptionalText(OVERRIDE_REASON_MAX).describe(
  'Owners and admins: why the device is given although the follow-on sales rule refuses this customer (GET /customers/{id}/credit-check). Kept in the activity log.',
);

/** PUT /settings/follow-on-sales. Every field optional: one left out keeps its stored value. */
export const ZFollowOnSettingsInputSchema = z
  .object({
    rule: z.enum(FOLLOW_ON_RULES, { error: `must be one of ${FOLLOW_ON_RULES.join(', ')}` }).optional(),
    refuse_repossessed: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();
export type FollowOnSettingsInput = z.infer<typeof ZFollowOnSettingsInputSchema>;

export const ZFollowOnSettingsSchema = z.object({
  rule: z.enum(FOLLOW_ON_RULES),
  /** Give no device to a customer a device was repossessed from. */
  refuse_repossessed: z.boolean(),
});
export type FollowOnSettings = z.infer<typeof ZFollowOnSettingsSchema>;

/**
 * GET /customers/{id}/credit-check: whether the customer may be given another
 * device under the organization's follow-on sales rule, and what it rests on.
 */
export const ZCreditCheckSchema = z.object({
  customer_id: z.number().int(),
  customer_name: z.string(),
  /** Devices the customer holds now. */
  devices: z.number().int(),
  /** Their repayment over those devices (repayment.ts); standing null when none is on a plan with a payoff price. */
  repayment: ZRepaymentSchema,
  /** Devices repossessed from the customer, ever. */
  repossessions: z.number().int(),
  rule: z.enum(FOLLOW_ON_RULES),
  refuse_repossessed: z.boolean(),
  /** The rule lets the customer have another device. */
  allowed: z.boolean(),
  /** Why not, one sentence each; empty when allowed. */
  reasons: z.array(z.string()),
});
export type CreditCheck = z.infer<typeof ZCreditCheckSchema>;
