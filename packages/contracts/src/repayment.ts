import { z } from 'zod';
import { ZMoneySchema } from './common.js';

/**
 * How a customer repays against their plan: what the plan expects paid by
 * today, what was paid towards it, and where that leaves them. The figure a
 * PAYG lender decides a follow-on sale (a second product on credit) by:
 *
 * For one device on a plan with a payoff price P, given to its customer D
 * whole days ago (now − assigned_at), with the upfront amount U (deposit +
 * activation price), the daily price p and g grace days:
 * - expected by today = min(P, U + p × max(D − g, 0)): the upfront amount on
 *   the day it is given, then a day's price for every day after the grace days;
 *   P for a device paid off;
 * - paid towards it = min(total paid on the device, P);
 * - repaid share = paid ÷ expected, in percent with one decimal (over 100 for a
 *   customer paying ahead); null when nothing is expected yet (U = 0 within the
 *   grace days), and such a customer is on track.
 * A device without a plan or without a payoff price has no standing (null
 * figures): nothing says what it should have paid.
 *
 * A customer's are the sums over their devices that have one; the standing is
 * `paid_off` when every such device is paid off, else by the share:
 * REPAYMENT_ON_TRACK_SHARE or more `on_track`, REPAYMENT_BEHIND_SHARE or more
 * `behind`, less `far_behind`.
 */
export const REPAYMENT_STANDINGS = ['paid_off', 'on_track', 'behind', 'far_behind'] as const;
export type RepaymentStanding = (typeof REPAYMENT_STANDINGS)[number];

export const REPAYMENT_STANDING_LABELS: Record<RepaymentStanding, string> = {
  paid_off: 'Paid off',
  on_track: 'On track',
  behind: 'Behind',
  far_behind: 'Far behind',
};

/** A repaid share of at least this many percent of what the plan expects by today is on track. */
export const REPAYMENT_ON_TRACK_SHARE = 90;
/** At least this many percent (and under REPAYMENT_ON_TRACK_SHARE) is behind; less is far behind. */
export const REPAYMENT_BEHIND_SHARE = 60;

/**
 * The standing of `paid` towards `expected` (see REPAYMENT_STANDINGS), in cents so that the thresholds are exact (the
 * SQL that filters by it compares the same way): nothing expected yet is on track.
 */
export function repaymentStanding(paidCents: number, expectedCents: number, paidOff: boolean): RepaymentStanding {
  if (paidOff) return 'paid_off';
  if (expectedCents <= 0 || paidCents * 100 >= expectedCents * REPAYMENT_ON_TRACK_SHARE) return 'on_track';
  return paidCents * 100 >= expectedCents * REPAYMENT_BEHIND_SHARE ? 'behind' : 'far_behind';
}

/** paid ÷ expected in percent with one decimal; null when nothing is expected. */
export function repaidShare(paid: number, expected: number): number | null {
  return expected > 0 ? Math.round((1000 * paid) / expected) / 10 : null;
}

export const ZRepaymentSchema = z.object({
  /** What the plan expects paid by today (see above); null without a plan and a payoff price. */
  expected_by_today: ZMoneySchema.nullable(),
  /** Paid towards it: each device's total paid, at most its payoff price. */
  paid_towards: ZMoneySchema.nullable(),
  /** paid_towards ÷ expected_by_today in percent, one decimal; null when nothing is expected yet. */
  repaid_share: z.number().nullable(),
  /** null only without an expected. */
  standing: z.enum(REPAYMENT_STANDINGS).nullable(),
});
export type Repayment = z.infer<typeof ZRepaymentSchema>;
