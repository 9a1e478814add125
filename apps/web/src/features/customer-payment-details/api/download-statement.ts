import type { StatementLanguage } from '@kidogo/contracts';
import { downloadFile } from '@/lib/api-client';

export interface StatementPeriod {
  from?: string;
  to?: string;
}

/** The customer's statement of account (PDF) for a period, all time without one; in the customer's language unless one is given. */
export const downloadStatement = (customerId: number, period: StatementPeriod = {}, language: StatementLanguage | null = null) =>
  downloadFile(`/customers/${customerId}/statement`, `statement-${customerId}.pdf`, {
    query: { from: period.from, to: period.to, language: language ?? undefined },
    headers: { Accept: 'application/pdf' },
  });
