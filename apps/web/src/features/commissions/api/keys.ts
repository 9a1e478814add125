import type { CommissionPayoutsPage } from './types';

/**
 * Query keys of Agent Commissions. A payout recorded or voided refreshes all
 * of them: the agent's row, the month's totals and voided payouts, and the
 * agent's history all move.
 */
export const commissionKeys = {
  all: ['commissions'] as const,
  /** Every agent's commission for a month ("2026-11"). */
  month: (month: string) => [...commissionKeys.all, 'month', month] as const,
  /** One agent's payouts across months. */
  payouts: (agent: string) => [...commissionKeys.all, 'payouts', agent] as const,
  payoutsPage: (agent: string, q: CommissionPayoutsPage) => [...commissionKeys.payouts(agent), q] as const,
};
