/**
 * Money helpers. Amounts are never floats here: internally they are integer
 * cents (a JS number is exact up to 2^53, i.e. ~90 trillion shillings), and at
 * the boundaries they are decimal strings with exactly two decimals ("1500.00").
 */

/** Largest amount we accept, in cents (a trillion shillings): far above any mobile-money limit. */
export const MAX_AMOUNT_CENTS = 100_000_000_000_000;

/**
 * Parse a written amount into integer cents.
 * Accepts "1500", "1500.5", "1500.00", "1,500.00", "1,234,567.89" and the same
 * with surrounding spaces. Thousands separators must be well formed (groups of
 * three). Returns null for anything else (negative, exponent, garbage, too big).
 */
export function parseAmountToCents(raw: string): number | null {
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const whole = m[1]!.replace(/,/g, '');
  // Avoid silently losing precision on absurdly long digit strings.
  if (whole.length > 15) return null;
  const frac = (m[2] ?? '').padEnd(2, '0');
  const cents = Number(whole) * 100 + Number(frac);
  if (!Number.isSafeInteger(cents) || cents > MAX_AMOUNT_CENTS) return null;
  return cents;
}

/**
 * Like parseAmountToCents, but also takes a JS number (as Daraja sometimes
 * sends TransAmount: 10 or 10.5). The number is converted through its shortest
 * decimal representation, so 10.1 becomes 1010 cents, never 1009.
 */
export function amountToCents(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    const text = String(value);
    if (/e/i.test(text)) return null;
    return parseAmountToCents(text);
  }
  if (typeof value === 'string') return parseAmountToCents(value);
  return null;
}

/** Integer cents to a plain decimal string with two decimals: 150000 -> "1500.00". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const frac = abs % 100;
  return `${sign}${whole}.${String(frac).padStart(2, '0')}`;
}

/** Integer cents to a grouped decimal string for people: 1835000 -> "18,350.00". */
export function formatCentsGrouped(cents: number): string {
  const plain = formatCents(cents);
  const [intPart, fracPart] = plain.split('.') as [string, string];
  const sign = intPart.startsWith('-') ? '-' : '';
  const digits = sign ? intPart.slice(1) : intPart;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${fracPart}`;
}

/**
 * Written currency markers seen in East African mobile-money SMS, mapped to
 * ISO 4217 codes. "Ksh"/"KSH"/"Kshs" (M-Pesa Kenya), "Tsh"/"TSh"/"Tshs"
 * (Tanzania), "UGX"/"USh" (Uganda), "RWF" (Rwanda), "GHS"/"GHC"/"GH₵" (Ghana),
 * "ZMW" (Zambia).
 */
export function currencyFromMarker(marker: string): string | null {
  const m = marker.trim().replace(/\.$/, '').toUpperCase();
  switch (m) {
    case 'KSH':
    case 'KSHS':
    case 'KES':
      return 'KES';
    case 'TSH':
    case 'TSHS':
    case 'TZS':
      return 'TZS';
    case 'USH':
    case 'UGX':
      return 'UGX';
    case 'RWF':
      return 'RWF';
    case 'GHS':
    case 'GHC':
    case 'GH₵':
      return 'GHS';
    case 'ZMW':
      return 'ZMW';
    default:
      return null;
  }
}
