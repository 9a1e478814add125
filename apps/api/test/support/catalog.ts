import { expect } from '@jest/globals';
import type { TestApp } from './test-app.js';

// Helpers for the customer, device and template tests (rows the payment
// pipeline would write, CSV files).

/** A completed payment as the payment pipeline records it. */
export async function recordPayment(
  t: TestApp,
  orgId: string,
  data: {
    customer_id: number | null;
    item_id?: number | null;
    amount: string;
    status?: 'success' | 'completed' | 'pending' | 'failed';
    days_bought?: number;
    paid_at?: Date;
    transaction_code?: string;
  },
) {
  return t.db.db.payment.create({
    data: {
      organization_id: orgId,
      customer_id: data.customer_id,
      item_id: data.item_id ?? null,
      amount: data.amount,
      status: data.status ?? 'completed',
      days_bought: data.days_bought ?? 0,
      paid_at: data.paid_at ?? new Date(),
      transaction_code: data.transaction_code ?? null,
    },
  });
}

/** A CSV file body from a header and rows (values written as given: quote them yourself). */
export const csvText = (lines: string[], eol = '\n') => lines.join(eol) + eol;

/** Reads a CSV reply body (supertest gives text for text/csv). */
export function parseCsvReply(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * Expects a page of a list to be `all` (every row's key, in list order) at
 * `offset`, ten at a time, with `all`'s length as its total; `label` names
 * the case in a failure.
 */
export function expectPageOf(label: Record<string, unknown>, page: { keys: unknown[]; total: number }, all: unknown[], offset: number) {
  expect({ ...label, keys: page.keys, total: page.total }).toEqual({ ...label, keys: all.slice(offset, offset + 10), total: all.length });
}
