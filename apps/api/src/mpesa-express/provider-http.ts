import type { DatabaseService, ScopedClient } from '../database/database.service.js';
import type { SecretBox } from '../common/crypto.js';
import { mask } from '../common/crypto.js';
import { Errors } from '../common/errors.js';

/** How long one call to Safaricom or MTN may take. */
export const PROVIDER_TIMEOUT_MS = 15_000;

/**
 * One JSON call to a payment provider's API: its status and body (null when empty or not JSON). Not reaching it, or
 * no answer within PROVIDER_TIMEOUT_MS, throws `fail(message)` with words staff can act on.
 */
export async function callProvider(url: string, init: RequestInit, fail: (message: string) => Error): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), redirect: 'error' });
  } catch (e) {
    const timedOut = (e as Error).name === 'TimeoutError';
    throw fail(timedOut ? `no answer within ${PROVIDER_TIMEOUT_MS / 1000} s` : `could not reach ${new URL(url).host}`);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    return { status: res.status, body: null };
  }
}

/** An organization's payment_providers row for one provider, its sealed config opened (an unreadable one reads as empty). */
export interface ProviderRow<S> {
  stored: S;
  isActive: boolean;
  updatedAt: Date;
}

export async function readProviderRow<S extends object>(database: DatabaseService, box: SecretBox, orgId: string, provider: string): Promise<ProviderRow<S> | null> {
  const row = await database.db.paymentProvider.findUnique({ where: { organization_id_provider: { organization_id: orgId, provider } } });
  if (!row) return null;
  let stored = {} as S;
  try {
    const parsed = JSON.parse(box.open(row.config_enc)) as unknown;
    if (parsed && typeof parsed === 'object') stored = parsed as S;
  } catch {
    /* unreadable: as if empty */
  }
  return { stored, isActive: row.is_active, updatedAt: row.updated_at };
}

/**
 * The secrets to store: each one given, else the stored one when it is left out, empty, or sent back as the masked
 * value GET gave; a secret with neither is a 400 naming it.
 */
export function keptSecrets<F extends string>(fields: readonly F[], given: Partial<Record<F, string | undefined>>, old: Partial<Record<F, string>>): Record<F, string> {
  const next = {} as Record<F, string>;
  for (const field of fields) {
    const value = given[field];
    const kept = old[field];
    const chosen = !value || (kept && value === mask(kept)) ? kept : value;
    if (!chosen) throw Errors.badRequest(field, 'is required');
    next[field] = chosen;
  }
  return next;
}

type Tx = Parameters<Parameters<ScopedClient['$transaction']>[0]>[0];

/** Writes an organization's row for a provider (sealed config), in the caller's transaction. */
export function saveProviderRow(tx: Tx, orgId: string, provider: string, config_enc: string, is_active: boolean) {
  return tx.paymentProvider.upsert({
    where: { organization_id_provider: { organization_id: orgId, provider } },
    create: { organization_id: orgId, provider, config_enc, is_active },
    update: { config_enc, is_active },
  });
}
