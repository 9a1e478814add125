import type { CashLedgerListQuery } from './types';

/**
 * Query keys of Cash in Hand. A handover recorded or voided refreshes all of
 * them: the collector's row, the totals and their ledger all move.
 */
export const cashKeys = {
  all: ['cash'] as const,
  summary: () => [...cashKeys.all, 'summary'] as const,
  /** The ledger of one collector. */
  ledger: (username: string) => [...cashKeys.all, 'ledger', username] as const,
  ledgerPage: (username: string, q: CashLedgerListQuery) => [...cashKeys.ledger(username), q] as const,
};
