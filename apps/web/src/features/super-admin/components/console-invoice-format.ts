/** The console shows every amount with a $ prefix, whatever the currency (spec §9). */
export const dollars = (v: string | number | null | undefined) => {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n)
    ? `$${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)}`
    : '$0.00';
};

const COLORS: Record<string, string> = { paid: 'green', pending: 'yellow', overdue: 'red' };
export const consoleInvoiceColor = (s: string | null | undefined) => COLORS[(s ?? '').toLowerCase()] ?? 'gray';
