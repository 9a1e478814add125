import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest (device token keys, provider and OEM
 * credentials, receiver API keys). Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [v, iv, tag, data] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

const MASK = '••••••••';

/**
 * Enough to recognise a secret, not to use it: at most a third of it, and
 * never its length. Under 16 characters nothing of it shows ("••••••••"),
 * under 24 its last four ("••••••••wxyz"), else its first and last four
 * ("sk_l••••••••wxyz").
 */
export function mask(secret: string | null | undefined): string | null {
  if (!secret) return null;
  if (secret.length < 16) return MASK;
  if (secret.length < 24) return `${MASK}${secret.slice(-4)}`;
  return `${secret.slice(0, 4)}${MASK}${secret.slice(-4)}`;
}
