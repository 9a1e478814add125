import { createHmac } from 'node:crypto';

/**
 * The authenticator app of the browser tests: RFC 6238 codes (HMAC-SHA1,
 * 30-second steps, 6 digits) of a base32 secret, written apart from the
 * API's own so that a mistake in one is not repeated in the other.
 */
const STEP_SECONDS = 30;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 to bytes; spaces, padding and case are ignored, as apps ignore them. */
export function base32Decode(secret: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of secret.toUpperCase().replace(/[\s=]/g, '')) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error(`not base32: ${ch}`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** The 30-second step a moment falls in: RFC 6238's T. */
export const totpStep = (ms = Date.now()) => Math.floor(ms / 1000 / STEP_SECONDS);

/** The code of one step: HMAC-SHA1 of the 8-byte big-endian counter, dynamic truncation, 6 digits. */
export function totpCode(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * A code of a step after `used`: the server takes each step's code once, so
 * a second sign-in in the same 30 seconds waits for the next step.
 */
export async function nextTotp(secret: string, used: number): Promise<{ code: string; step: number }> {
  while (totpStep() <= used) {
    const untilNext = (used + 1) * STEP_SECONDS * 1000 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(untilNext, 0) + 250));
  }
  const step = totpStep();
  return { code: totpCode(secret, step), step };
}
