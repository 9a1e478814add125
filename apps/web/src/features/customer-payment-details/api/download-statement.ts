import { downloadFile } from '@/lib/api-client';

export interface StatementPeriod {
  from?: string;
  to?: string;
}

/** The customer's statement of account (PDF) for a period; all time without one. */
export const downloadStatement = (customerId: number, period: StatementPeriod = {}) =>
  downloadFile(`/customers/${customerId}/statement`, `statement-${customerId}.pdf`, {
    query: { from: period.from, to: period.to },
    headers: { Accept: 'application/pdf' },
  });
