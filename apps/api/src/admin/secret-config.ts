import { SecretBox, mask } from '../common/crypto.js';

export type SecretValue = string | number | boolean | null;
export type SecretObject = Record<string, SecretValue>;

/**
 * Provider configs and OEM credentials at rest: SecretBox.seal(JSON.stringify(obj))
 * (the payment pipeline opens payment_providers.config_enc the same way).
 */
export const sealObject = (box: SecretBox, obj: SecretObject) => box.seal(JSON.stringify(obj));

export function openObject(box: SecretBox, sealed: string): SecretObject {
  try {
    const parsed = JSON.parse(box.open(sealed)) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as SecretObject) : {};
  } catch {
    // Sealed with another key: nothing readable, and nothing to leak.
    return {};
  }
}

/** Every string value masked; numbers, booleans and nulls as they are. */
export function maskObject(obj: SecretObject): Record<string, SecretValue> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, typeof v === 'string' ? (mask(v) ?? '') : v]));
}

/**
 * The new object as sent, except that a value sent back exactly as it was
 * shown (masked) keeps the stored secret: a form can save other fields
 * without knowing the secrets.
 */
export function mergeMasked(stored: SecretObject, incoming: SecretObject): SecretObject {
  const out: SecretObject = {};
  for (const [k, v] of Object.entries(incoming)) {
    const old = stored[k];
    out[k] = typeof v === 'string' && typeof old === 'string' && v === (mask(old) ?? '') ? old : v;
  }
  return out;
}
