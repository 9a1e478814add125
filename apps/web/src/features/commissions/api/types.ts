// The API's contract (packages/contracts/src/commissions.ts), plus what only this screen needs.
export type {
  CommissionAgent,
  CommissionMonth,
  CommissionPayAllInput,
  CommissionPayAllReply,
  CommissionPayout,
  CommissionPayoutInput,
  CommissionPayoutList,
  CommissionPayoutReply,
  CommissionStatus,
} from '@kidogo/contracts';
export { NO_AGENT, ZCommissionPayAllInputSchema, ZCommissionPayoutInputSchema } from '@kidogo/contracts';

/** What the history drawer asks GET /commissions/payouts for: one agent's payouts, a page at a time, newest month first. */
export interface CommissionPayoutsPage {
  page: number;
  limit: number;
}
