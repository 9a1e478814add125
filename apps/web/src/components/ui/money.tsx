import { Text, type TextProps } from '@mantine/core';

/** Shown when an amount carries no currency (spec §9). */
export const DEFAULT_DISPLAY_CURRENCY = 'USD';

/** 'KES 1,500.00': two decimals, grouped in the user's locale, currency code first. '—' when not a number. */
export function formatMoney(amount: number | string | null | undefined, currency?: string | null): string {
  const value = typeof amount === 'string' ? Number(amount.trim()) : amount;
  if (value === null || value === undefined || (typeof amount === 'string' && !amount.trim()) || !Number.isFinite(value)) {
    return '—';
  }
  const digits = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return `${currency?.trim() || DEFAULT_DISPLAY_CURRENCY} ${digits}`;
}

export function Money({
  amount,
  currency,
  ...props
}: { amount: number | string | null | undefined; currency?: string | null } & TextProps) {
  return (
    <Text span ff="var(--mantine-font-family)" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} {...props}>
      {formatMoney(amount, currency)}
    </Text>
  );
}

/**
 * Money in currencies other than `main`, for a card that shows one total:
 * 'KES 5,000.00 · EUR 0.01 more'; undefined when there is none. Amounts in
 * different currencies are never added together.
 */
export function otherCurrencies(totals: { currency: string; amount: string }[], main: string): string | undefined {
  const others = totals.filter((t) => t.currency !== main && Number(t.amount) !== 0).map((t) => formatMoney(t.amount, t.currency));
  return others.length ? `+ ${others.join(' · ')}` : undefined;
}
