import { describe, expect, it } from 'vitest';
import { invoiceAmount, keptRows, lineItemsPayload, lineTotal, removeRow, type LineItemRow } from './line-items';

const row = (key: number, description: string, quantity: number | string, unit_price: number | string): LineItemRow => ({
  key,
  description,
  quantity,
  unit_price,
});

describe('invoice line items (spec §5)', () => {
  it('line total = quantity × unit price, to the cent', () => {
    expect(lineTotal(row(1, 'a', 3, 19.99))).toBe(59.97);
    expect(lineTotal(row(1, 'a', 0.5, 0.05))).toBe(0.03);
    expect(lineTotal(row(1, 'a', '', 10))).toBe(0);
    expect(lineTotal(row(1, 'a', -2, 10))).toBe(0);
  });

  it('drops rows with an empty description, from the amount and from what is sent', () => {
    const rows = [row(1, 'Subscription', 1, 100), row(2, '   ', 5, 50), row(3, 'SMS bundle', 2, 12.5)];
    expect(keptRows(rows).map((r) => r.key)).toEqual([1, 3]);
    expect(invoiceAmount(rows)).toBe(125);
    expect(JSON.parse(lineItemsPayload(rows))).toEqual([
      { description: 'Subscription', quantity: 1, unit_price: 100, total_amount: 100 },
      { description: 'SMS bundle', quantity: 2, unit_price: 12.5, total_amount: 25 },
    ]);
  });

  it('always keeps at least one row', () => {
    const one = [row(1, '', 1, 0)];
    expect(removeRow(one, 1)).toBe(one);
    expect(removeRow([row(1, 'a', 1, 1), row(2, 'b', 1, 1)], 1).map((r) => r.key)).toEqual([2]);
  });
});
