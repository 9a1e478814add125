import { describe, expect, it } from 'vitest';
import { mapStatementRow, STATEMENT_COLUMNS } from '../src/index.js';

// Header of the M-Pesa Org Portal statement export (business paybill / till), as seen in
// public reconciliation code: Receipt No., Completion Time, Initiation Time, Details,
// Transaction Status, Paid In, Withdrawn, Balance, Balance Confirmed, Reason Type,
// Other Party Info, Linked Transaction ID, A/C No.
const orgRow = {
  'Receipt No.': 'SF57HQ2K8D',
  'Completion Time': '2024-06-05 10:15:32',
  'Initiation Time': '2024-06-05 10:15:30',
  Details: 'Pay Bill Online',
  'Transaction Status': 'Completed',
  'Paid In': '1,500.00',
  Withdrawn: '',
  Balance: '45300.00',
  'Balance Confirmed': 'true',
  'Reason Type': 'Pay Bill Online',
  'Other Party Info': '254712345678 - JOHN KAMAU MWANGI',
  'Linked Transaction ID': '',
  'A/C No.': 'SN-48213',
};

describe('mapStatementRow', () => {
  it('maps an Org Portal paybill row', () => {
    expect(mapStatementRow(orgRow)).toEqual({
      ok: true,
      payment: {
        provider: 'mpesa',
        kind: 'paybill',
        transaction_code: 'SF57HQ2K8D',
        amount: '1500.00',
        currency: 'KES',
        sender_name: 'JOHN KAMAU MWANGI',
        sender_phone: '254712345678',
        transacted_at: '2024-06-05T10:15:32+03:00',
        account_reference: 'SN-48213',
        balance: '45300.00',
      },
    });
  });

  it('maps a till row with a masked other party', () => {
    const r = mapStatementRow({
      ...orgRow,
      'Receipt No.': 'ucm5pq7t1b',
      Details: 'Pay Merchant',
      'Reason Type': 'Customer Buy Goods Online',
      'Other Party Info': '0712****678 - MERCY ATIENO',
      'A/C No.': '',
      'Paid In': '200',
    });
    expect(r).toMatchObject({
      ok: true,
      payment: {
        kind: 'till',
        transaction_code: 'UCM5PQ7T1B',
        amount: '200.00',
        sender_name: 'MERCY ATIENO',
        sender_phone: null,
        sender_phone_masked: '0712****678',
        account_reference: null,
      },
    });
  });

  it('matches headers whatever their case, spacing or punctuation', () => {
    const r = mapStatementRow({
      ' transaction code ': 'SF57HQ2K8D',
      'COMPLETION  TIME': '05/06/2024 10:15:00',
      'transaction_status': 'completed',
      'PAID-IN': 'KES 1,500.00',
      'other party': '2547****0111 - MARY ATIENO',
      'Account Reference': 'kd 0042',
    });
    expect(r).toMatchObject({
      ok: true,
      payment: {
        transaction_code: 'SF57HQ2K8D',
        amount: '1500.00',
        transacted_at: '2024-06-05T10:15:00+03:00',
        sender_name: 'MARY ATIENO',
        sender_phone_masked: '2547****0111',
        account_reference: 'kd 0042',
        kind: 'paybill',
      },
    });
  });

  it('accepts a row with no status column and a name-only other party', () => {
    const r = mapStatementRow({ Receipt: 'AB12CD34EF', 'Paid In': '50', 'Other Party': 'KIDOGO AGENT', Date: '2024-06-05' });
    expect(r).toMatchObject({
      ok: true,
      payment: { sender_name: 'KIDOGO AGENT', sender_phone: null, transacted_at: '2024-06-05', kind: 'c2b', balance: null },
    });
  });

  it('refuses withdrawals, charges and incomplete rows with the reason', () => {
    const settle = mapStatementRow({ ...orgRow, Details: 'Organization Settle to Bank', 'Paid In': '', Withdrawn: '-4000.00' });
    expect(settle).toEqual({ ok: false, error: 'Withdrawal row (no Paid In amount): not a payment received' });
    const zero = mapStatementRow({ ...orgRow, 'Paid In': '0.00', Withdrawn: '' });
    expect(zero).toEqual({ ok: false, error: 'No Paid In amount in row' });
    const failed = mapStatementRow({ ...orgRow, 'Transaction Status': 'Failed' });
    expect(failed).toEqual({ ok: false, error: 'Transaction status is "Failed", not Completed' });
    const pending = mapStatementRow({ ...orgRow, 'Transaction Status': 'Pending' });
    expect(pending.ok).toBe(false);
    const noReceipt = mapStatementRow({ ...orgRow, 'Receipt No.': ' ' });
    expect(noReceipt).toMatchObject({ ok: false });
    const garbage = mapStatementRow({ ...orgRow, 'Paid In': 'abc' });
    expect(garbage.ok).toBe(false);
  });

  it('documents the accepted column names', () => {
    expect(STATEMENT_COLUMNS.receipt).toContain('Receipt No.');
    expect(STATEMENT_COLUMNS.receipt).toContain('Transaction Code');
    expect(STATEMENT_COLUMNS.other_party).toEqual(expect.arrayContaining(['Other Party Info', 'Other Party']));
    expect(STATEMENT_COLUMNS.account_reference).toEqual(expect.arrayContaining(['A/C No.', 'Account Reference']));
    for (const field of ['completion_time', 'details', 'status', 'paid_in', 'withdrawn', 'balance'] as const) {
      expect(STATEMENT_COLUMNS[field].length).toBeGreaterThan(0);
    }
  });
});
