/** One editable row of the Create Invoice form. */
export interface LineItemRow {
  key: number;
  description: string;
  quantity: number | string;
  unit_price: number | string;
}

let nextKey = 1;
export const newLineItem = (): LineItemRow => ({ key: nextKey++, description: '', quantity: 1, unit_price: 0 });

const num = (v: number | string) => {
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

const cents = (n: number) => Math.round(n * 100) / 100;

/** Line total = quantity × unit price, to the cent. */
export const lineTotal = (row: LineItemRow) => cents(num(row.quantity) * num(row.unit_price));

/** Rows with an empty description do not go on the invoice (spec §5). */
export const keptRows = (rows: LineItemRow[]) => rows.filter((r) => r.description.trim() !== '');

/** Invoice amount = sum of the line totals of the rows that are kept. */
export const invoiceAmount = (rows: LineItemRow[]) => cents(keptRows(rows).reduce((sum, r) => sum + lineTotal(r), 0));

/** Removing the last row is not possible: at least one row always remains. */
export const removeRow = (rows: LineItemRow[], key: number) => (rows.length <= 1 ? rows : rows.filter((r) => r.key !== key));

/** The line_items the server gets: a JSON string of {description, quantity, unit_price, total_amount}. */
export const lineItemsPayload = (rows: LineItemRow[]) =>
  JSON.stringify(
    keptRows(rows).map((r) => ({
      description: r.description.trim(),
      quantity: num(r.quantity),
      unit_price: num(r.unit_price),
      total_amount: lineTotal(r),
    })),
  );
