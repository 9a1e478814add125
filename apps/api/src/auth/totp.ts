import { createHmac, randomBytes, randomInt } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1,
 * 30-second steps, 6 digits, the defaults every authenticator app uses
 * (Google and Microsoft Authenticator, Authy, 1Password). The secret is
 * 160 random bits, written in base32 (RFC 4648) as the apps take it.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code is taken for: a phone's clock 30 s off, a code typed as it changed. */
export const TOTP_WINDOW = 1;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 to bytes; spaces, dashes, padding and case are ignored. Throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** The step a moment is in. */
export const totpStep = (ms: number = Date.now()): number => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);

/** RFC 4226: the code of one counter value. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return String(binary).padStart(TOTP_DIGITS, '0');
}

export const totpCode = (secret: string, ms: number = Date.now()): string => hotp(base32Decode(secret), totpStep(ms));

/**
 * The step `code` is the code of, within TOTP_WINDOW steps of `ms` and after
 * `lastStep` (a code already taken, or an older one, never works again), or
 * null. Every candidate is computed, so the time taken says nothing of which matched.
 */
export function matchTotp(secret: string, code: string, lastStep: number | null, ms: number = Date.now()): number | null {
  const key = base32Decode(secret);
  const now = totpStep(ms);
  let found: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (hotp(key, step) === code && (lastStep === null || step > lastStep) && found === null) found = step;
  }
  return found;
}

/** The URI authenticator apps read from a QR code (Google's Key Uri Format). */
export function otpauthUrl(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${query}`;
}

/** Letters and digits that cannot be misread for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code: two groups of five, "k7p2m-x9q4d" (about 49 bits). */
export function newRecoveryCode(): string {
  const pick = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${pick()}-${pick()}`;
}

/** A recovery code as typed (any case, with or without the dash and spaces), as it is hashed. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');
