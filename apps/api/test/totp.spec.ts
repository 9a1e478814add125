import { describe, expect, it } from '@jest/globals';
import {
  base32Decode,
  base32Encode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  otpauthUrl,
  totpCode,
} from '../src/auth/totp.js';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890", 8-digit codes,
// of which a 6-digit code is the last six.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  it('gives the codes of RFC 6238', () => {
    for (const [seconds, code] of VECTORS) expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(-6));
  });

  it('writes and reads base32 as RFC 4648 has it', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb-oi==').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow('not base32');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('takes a code one step either side of now, never one already used or older', () => {
    const t = 1234567890 * 1000;
    const step = Math.floor(t / 30000);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t), null, t)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t - 30000), null, t)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t + 30000), null, t)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t - 60000), null, t)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t), step, t)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, t - 30000), step - 1, t)).toBeNull();
    expect(matchTotp(RFC_SECRET, '000000', null, t)).toBeNull();
  });

  it('names the issuer and account for the apps, and makes readable recovery codes', () => {
    expect(otpauthUrl('Kidogo', 'grace w', 'ABC')).toBe('otpauth://totp/Kidogo:grace%20w?secret=ABC&issuer=Kidogo&algorithm=SHA1&digits=6&period=30');
    const codes = new Set(Array.from({ length: 200 }, newRecoveryCode));
    expect(codes.size).toBe(200);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(normalizeRecoveryCode(' K7P2M-x9q4d ')).toBe('k7p2mx9q4d');
  });
});
