// The API's contract (packages/contracts/src/cash.ts), plus what only this screen needs.
export type {
  CashCollector,
  CashHandover,
  CashHandoverInput,
  CashHandoverReply,
  CashLedgerEntry,
  CashLedgerReply,
  CashSummary,
  CashVoidInput,
} from '@kidogo/contracts';
export { CASH_OVERDUE_DAYS, ZCashHandoverInputSchema, ZCashVoidInputSchema } from '@kidogo/contracts';

/** What the ledger drawer asks GET /cash/{username}/ledger for: one page, newest first; every currency when currency is absent. */
export interface CashLedgerListQuery {
  page: number;
  limit: number;
  currency?: string;
}
