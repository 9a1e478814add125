/**
 * Rows of an M-Pesa statement export (the business "Org Portal" CSV, or a
 * personal statement converted to CSV), used to reconcile payments that never
 * reached us as an SMS or callback. Typical header:
 *
 *   Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,
 *   Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.
 *
 * "Other Party Info" reads like "254712345678 - JOHN DOE" or, masked, "2547****0111 - MARY ATIENO".
 * Header names are matched without regard to case, spaces or punctuation.
 */
import { parseStatementTime } from './datetime.js';
import { formatCents, parseAmountToCents } from './money.js';
import { isMaskedPhone, normalizePhone } from './phone.js';
import type { ParsedPayment, ParseResult, PaymentKind } from './types.js';

export type StatementField =
  | 'receipt'
  | 'completion_time'
  | 'details'
  | 'status'
  | 'paid_in'
  | 'withdrawn'
  | 'balance'
  | 'other_party'
  | 'account_reference'
  | 'reason_type';

/** The column names accepted for each field (any case, spacing or punctuation). */
export const STATEMENT_COLUMNS: Readonly<Record<StatementField, readonly string[]>> = {
  receipt: ['Receipt No.', 'Receipt No', 'Receipt', 'Receipt Number', 'Transaction Code', 'Transaction ID', 'Trans ID'],
  completion_time: ['Completion Time', 'Completion Date', 'Transaction Time', 'Date', 'Time'],
  details: ['Details', 'Description', 'Narration'],
  status: ['Transaction Status', 'Status'],
  paid_in: ['Paid In', 'Paid in (KES)', 'Credit', 'Amount Received', 'Money In'],
  withdrawn: ['Withdrawn', 'Withdrawn (KES)', 'Debit', 'Money Out'],
  balance: ['Balance', 'Running Balance'],
  other_party: ['Other Party Info', 'Other Party', 'Other Party Information', 'Counterparty'],
  account_reference: ['A/C No.', 'A/C No', 'Account No.', 'Account Number', 'Account Reference', 'Bill Reference', 'BillRefNumber'],
  reason_type: ['Reason Type', 'Transaction Type'],
};

function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const KEY_TO_FIELD: ReadonlyMap<string, StatementField> = new Map(
  (Object.entries(STATEMENT_COLUMNS) as Array<[StatementField, readonly string[]]>).flatMap(([field, names]) =>
    names.map((n) => [headerKey(n), field] as const),
  ),
);

/** Map a raw row to known fields; the first non-empty column wins for a field. */
function readRow(row: Record<string, string>): Partial<Record<StatementField, string>> {
  const out: Partial<Record<StatementField, string>> = {};
  for (const [name, raw] of Object.entries(row)) {
    const field = KEY_TO_FIELD.get(headerKey(name));
    if (field === undefined || typeof raw !== 'string') continue;
    const value = raw.trim();
    if (value !== '' && out[field] === undefined) out[field] = value;
  }
  return out;
}

/** "1,500.00", "KES 1,500.00", "-4000.00" -> cents (sign kept), or null. */
function statementAmount(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const s = raw.replace(/^(?:KES|Ksh)\s*/i, '').trim();
  const negative = s.startsWith('-') || (s.startsWith('(') && s.endsWith(')'));
  const cents = parseAmountToCents(s.replace(/^[-(]|\)$/g, ''));
  if (cents === null) return null;
  return negative ? -cents : cents;
}

function kindOf(details: string, reason: string, hasAccount: boolean): PaymentKind {
  const text = `${details} ${reason}`.toLowerCase();
  if (/buy\s*goods|merchant|till/.test(text)) return 'till';
  if (/pay\s*bill/.test(text)) return 'paybill';
  return hasAccount ? 'paybill' : 'c2b';
}

/** "254712345678 - JOHN DOE", "2547****0111 - MARY ATIENO", "JOHN DOE" -> name and phone. */
function otherParty(raw: string | undefined): { name: string | null; phone: string | null; masked?: string } {
  if (raw === undefined) return { name: null, phone: null };
  const m = /^\s*([+\d*xX•#][\d\s*xX•#]{6,18}?)\s*-\s*(.*)$/.exec(raw);
  if (m) {
    const number = m[1]!.replace(/\s/g, '');
    const name = m[2]!.trim() === '' ? null : m[2]!.trim();
    if (isMaskedPhone(number)) return { name, phone: null, masked: number };
    return { name, phone: normalizePhone(number) };
  }
  const name = raw.trim();
  return { name: name === '' ? null : name, phone: null };
}

/**
 * One statement row to a payment. Rows that are not money received (no Paid In,
 * a withdrawal, a charge) or not completed are refused with the reason. Never throws.
 */
export function mapStatementRow(row: Record<string, string>): ParseResult {
  if (typeof row !== 'object' || row === null) return { ok: false, error: 'Row must be an object' };
  const f = readRow(row);
  if (f.receipt === undefined) return { ok: false, error: 'No receipt number (Receipt No. / Transaction Code) in row' };
  if (f.status !== undefined && !/^completed$/i.test(f.status)) {
    return { ok: false, error: `Transaction status is "${f.status}", not Completed` };
  }
  const paidIn = statementAmount(f.paid_in);
  if (paidIn === null || paidIn <= 0) {
    const withdrawn = statementAmount(f.withdrawn);
    return {
      ok: false,
      error:
        withdrawn !== null && withdrawn !== 0
          ? 'Withdrawal row (no Paid In amount): not a payment received'
          : 'No Paid In amount in row',
    };
  }
  const party = otherParty(f.other_party);
  const balance = statementAmount(f.balance);
  const payment: ParsedPayment = {
    provider: 'mpesa',
    kind: kindOf(f.details ?? '', f.reason_type ?? '', f.account_reference !== undefined),
    transaction_code: f.receipt.toUpperCase(),
    amount: formatCents(paidIn),
    currency: 'KES',
    sender_name: party.name,
    sender_phone: party.phone,
    transacted_at: f.completion_time === undefined ? null : parseStatementTime(f.completion_time),
    account_reference: f.account_reference ?? null,
    balance: balance === null ? null : formatCents(balance),
  };
  if (party.masked !== undefined) payment.sender_phone_masked = party.masked;
  return { ok: true, payment };
}
