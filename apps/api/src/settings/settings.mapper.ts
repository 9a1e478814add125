import type { SmsProvider, SmsProviderName } from '@kidogo/contracts';
import { mask } from '../common/crypto.js';

export type SmsConfig = Record<string, string | undefined>;

const SECRET = new Set(['api_key', 'secret']);
const FIELDS: Record<SmsProviderName, string[]> = {
  none: [],
  africastalking: ['username', 'api_key', 'sender_id', 'base_url'],
  sms_webhook: ['url', 'secret'],
};

/** The provider as shown in Settings: secrets masked, never whole. */
export function toSmsProvider(
  provider: SmsProviderName,
  config: SmsConfig,
  isActive: boolean,
  fallback: 'none' | 'africastalking' | 'webhook',
  updatedAt: Date | null,
): Omit<SmsProvider, 'reply_language' | 'text_name'> {
  const shown: Record<string, string | null> = {};
  for (const f of FIELDS[provider]) {
    const v = config[f] ?? null;
    shown[f] = SECRET.has(f) ? mask(v) : v;
  }
  return { provider, config: shown, is_active: isActive, fallback, updated_at: updatedAt ? updatedAt.toISOString() : null };
}
