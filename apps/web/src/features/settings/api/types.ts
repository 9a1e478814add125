// Mirrors packages/contracts/src/settings.ts of the API worktree
// (feat/api-money) until that contract is merged into main; then these
// become re-exports from @kidogo/contracts.

/** The organization's receiver key (header X-API-Key): kdg_<43 base64url characters>. */
export interface ApiKeyReply {
  api_key: string;
}

export const SMS_PROVIDERS = ['none', 'africastalking', 'sms_webhook'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

export interface SmsProviderConfig {
  username?: string;
  api_key?: string;
  sender_id?: string;
  base_url?: string;
  url?: string;
  secret?: string;
}

/** PUT /settings/sms-provider. Secrets left out (or sent back masked) keep their stored value. */
export interface SmsProviderInput {
  provider: SmsProviderName;
  config: SmsProviderConfig;
  is_active: boolean;
}

export interface SmsProvider {
  provider: SmsProviderName;
  /** Secrets (api_key, secret) masked. */
  config: Record<string, string | null>;
  is_active: boolean;
  /** Where messages go when this organization has no provider of its own. */
  fallback: 'none' | 'africastalking' | 'webhook';
  updated_at: string | null;
}
