/**
 * Phone numbers: one canonical form, digits only, with the country code and
 * no "+": "254712345678".
 *
 * Kenyan mobile numbers are 9 digits after the country code and start with 7
 * (Safaricom 07xx, Airtel 073x/075x/078x ...) or 1 (the newer 01xx ranges, e.g.
 * Safaricom 0110-0115). Uganda (256), Tanzania (255) and Rwanda (250) also use
 * 9-digit national numbers. A number written without a country code
 * (0772 123 456) is read as one of the organization's country, Kenya unless
 * it chose another (organizations.phone_country_code).
 *
 * Newer M-Pesa messages and Daraja callbacks mask the middle of the number
 * ("2547******678", "0712***678", "25470****149"); such a value identifies no
 * one on its own, so normalizePhone returns null for it, and
 * phoneMatchesMasked tells whether a known number fits the mask.
 */

/** Country codes we recognise without a "+" in front, with their national number length. */
const NATIONAL_LENGTH: Readonly<Record<string, number>> = {
  '254': 9, // Kenya
  '255': 9, // Tanzania
  '256': 9, // Uganda
  '250': 9, // Rwanda
  '257': 8, // Burundi
  '211': 9, // South Sudan
  '243': 9, // DR Congo
  '251': 9, // Ethiopia
  '260': 9, // Zambia
  '265': 9, // Malawi
  '263': 9, // Zimbabwe
  '234': 10, // Nigeria
  '233': 9, // Ghana
};

/** Whether numbers of this calling code can be read (an organization's phone country must be one). */
export function isKnownCountryCode(countryCode: string): boolean {
  return Object.hasOwn(NATIONAL_LENGTH, countryCode);
}

/** Characters that stand for a hidden digit in a masked number. */
const MASK_CHARS = /[*xX•#]/;

function nationalLength(countryCode: string): number {
  return NATIONAL_LENGTH[countryCode] ?? 9;
}

/** A national number that can be a mobile number in that country. */
function plausibleNational(countryCode: string, national: string): boolean {
  if (national.length !== nationalLength(countryCode)) return false;
  if (countryCode === '254') return /^[17]/.test(national);
  return /^[1-9]/.test(national);
}

/** Strip the separators people and apps put in phone numbers. */
function stripSeparators(raw: string): string {
  return raw.trim().replace(/[\s\-.()/]/g, '');
}

/** True when the value looks like a masked phone number (digits and mask characters only). */
export function isMaskedPhone(raw: string): boolean {
  if (typeof raw !== 'string') return false;
  const s = stripSeparators(raw).replace(/^\+/, '');
  if (!MASK_CHARS.test(s)) return false;
  if (!/^[\d*xX•#]+$/.test(s)) return false;
  const digits = s.replace(/\D/g, '').length;
  return digits >= 2 && s.length >= 9 && s.length <= 16;
}

/**
 * Canonical phone number (digits with country code, no "+") or null.
 *
 * - "0712345678", "712345678", "254712345678", "+254 712 345 678",
 *   "0112345678" -> "254712345678" / "254112345678"
 * - "+256 772 123456" -> "256772123456" (an explicit "+" keeps any country code)
 * - "255747900466" -> kept as is (a known East African code and the right length)
 * - masked ("2547******678"), hashed, empty or anything else -> null
 */
export function normalizePhone(raw: string, defaultCountryCode = '254'): string | null {
  if (typeof raw !== 'string') return null;
  if (!/^\d{1,3}$/.test(defaultCountryCode)) return null;
  let s = stripSeparators(raw);
  if (s === '' || MASK_CHARS.test(s)) return null;

  let international = false;
  if (s.startsWith('+')) {
    international = true;
    s = s.slice(1);
  } else if (s.startsWith('00')) {
    international = true;
    s = s.slice(2);
  }
  if (!/^\d+$/.test(s)) return null;

  if (international) {
    // E.164 allows at most 15 digits; with a known code, check the length too.
    if (s.length < 8 || s.length > 15 || s.startsWith('0')) return null;
    for (const [cc] of Object.entries(NATIONAL_LENGTH)) {
      if (s.startsWith(cc)) return plausibleNational(cc, s.slice(cc.length)) ? s : null;
    }
    return s;
  }

  const cc = defaultCountryCode;
  const len = nationalLength(cc);
  if (s.startsWith(cc) && s.length === cc.length + len) {
    return plausibleNational(cc, s.slice(cc.length)) ? s : null;
  }
  if (s.startsWith('0') && s.length === len + 1) {
    const national = s.slice(1);
    return plausibleNational(cc, national) ? cc + national : null;
  }
  if (s.length === len) {
    return plausibleNational(cc, s) ? cc + s : null;
  }
  // Another known country code written without "+", e.g. "256772123456" on a Kenyan receiver.
  for (const [other, otherLen] of Object.entries(NATIONAL_LENGTH)) {
    if (other !== cc && s.startsWith(other) && s.length === other.length + otherLen) {
      return plausibleNational(other, s.slice(other.length)) ? s : null;
    }
  }
  return null;
}

/**
 * Whether a canonical number fits a masked one.
 *
 * The visible digits before the first mask character must be the start of the
 * number (a leading "0" stands for the country code) and the visible digits
 * after the last mask character must be its end. The count of mask characters
 * is not trusted: Safaricom writes "2547******678" (six stars for five hidden
 * digits) as well as "0712***678". At least four digits must be visible, so an
 * all-star mask matches nothing. An unmasked value is compared after
 * normalisation.
 */
export function phoneMatchesMasked(masked: string, canonical: string, defaultCountryCode = '254'): boolean {
  if (typeof masked !== 'string' || typeof canonical !== 'string') return false;
  const target = normalizePhone(canonical, defaultCountryCode);
  if (target === null) return false;
  if (!isMaskedPhone(masked)) {
    return normalizePhone(masked, defaultCountryCode) === target;
  }
  const s = stripSeparators(masked).replace(/^\+/, '');
  const first = s.search(MASK_CHARS);
  let last = first;
  for (let i = s.length - 1; i >= 0; i--) {
    if (MASK_CHARS.test(s[i]!)) {
      last = i;
      break;
    }
  }
  let prefix = s.slice(0, first);
  const suffix = s.slice(last + 1);
  if (/\D/.test(prefix) || /\D/.test(suffix)) return false;
  if (prefix.length + suffix.length < 4) return false;

  const candidates: string[] = [];
  if (prefix.startsWith('0')) {
    prefix = prefix.slice(1);
    const cc = target.slice(0, target.length - nationalLength(defaultCountryCode));
    candidates.push(cc + prefix);
  } else {
    candidates.push(prefix, defaultCountryCode + prefix);
  }
  return candidates.some(
    (p) => p.length + suffix.length <= target.length && target.startsWith(p) && target.endsWith(suffix),
  );
}
