/**
 * Account references typed by customers into the M-Pesa "Account Number" or
 * Airtel "reference" field. People write the same reference many ways
 * ("kd-0042", "KD 0042", "kd.0042 "), so we compare them in one form:
 * trimmed, upper case, without spaces, dashes, dots or underscores.
 */
export function normalizeAccountRef(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  const out = s.trim().toUpperCase().replace(/[\s\-._]+/g, '');
  return out === '' ? null : out;
}
