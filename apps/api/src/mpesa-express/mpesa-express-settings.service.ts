import { Inject, Injectable } from '@nestjs/common';
import {
  MPESA_EXPRESS_BASE_URLS,
  MPESA_EXPRESS_ENVIRONMENTS,
  MPESA_EXPRESS_TRANSACTION_TYPES,
  type MpesaExpressEnvironment,
  type MpesaExpressSettings,
  type MpesaExpressTestReply,
  type MpesaExpressTransactionType,
  type ZMpesaExpressInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { mask, SecretBox } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { keptSecrets, readProviderRow, saveProviderRow } from './provider-http.js';
import { DarajaClient, DarajaError, type DarajaAccount } from './daraja.js';

/** The payment_providers row (provider name) that holds an organization's M-Pesa Express set-up, sealed. */
export const MPESA_EXPRESS_PROVIDER = 'mpesa_express';
/** Where Safaricom posts each request's result: PUBLIC_URL + this + the request's secret token. */
export const CALLBACK_PATH = '/payg/external/mpesa-express/';
const SECRET_FIELDS = ['consumer_key', 'consumer_secret', 'passkey'] as const;
const SECRET_LABELS: Record<(typeof SECRET_FIELDS)[number], string> = {
  consumer_key: 'consumer key',
  consumer_secret: 'consumer secret',
  passkey: 'passkey',
};

/**
 * What the row holds. base_url is not in the owner's form: the super admin sets it in the Payment Providers tab
 * to point an organization at a proxy or a test double of Safaricom; without it the environment's address applies.
 */
interface Stored {
  environment?: string;
  short_code?: string;
  transaction_type?: string;
  till_number?: string;
  consumer_key?: string;
  consumer_secret?: string;
  passkey?: string;
  base_url?: string;
}

/** An organization's M-Pesa Express, ready to send requests, or why not. */
export type Readiness = { ok: true; account: DarajaAccount; callbackBase: string } | { ok: false; problem: string };

const NOT_SET_UP = 'M-Pesa Express is not set up: an owner or admin sets it up in Settings → M-Pesa Express';

@Injectable()
export class MpesaExpressSettingsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly daraja: DarajaClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private row(orgId: string) {
    return readProviderRow<Stored>(this.database, this.box, orgId, MPESA_EXPRESS_PROVIDER);
  }

  get callbackBase(): string | null {
    return this.config.publicUrl ? `${this.config.publicUrl}${CALLBACK_PATH}` : null;
  }

  /** The organization's own base_url (set by the super admin), else MPESA_EXPRESS_BASE_URL, else Safaricom's for the environment. */
  private baseUrl(s: Stored): string {
    return (s.base_url || this.config.mpesaExpressBaseUrl || MPESA_EXPRESS_BASE_URLS[MpesaExpressSettingsService.environment(s)]).replace(/\/+$/, '');
  }

  private static environment(s: Stored): MpesaExpressEnvironment {
    return (MPESA_EXPRESS_ENVIRONMENTS as readonly string[]).includes(s.environment ?? '') ? (s.environment as MpesaExpressEnvironment) : 'sandbox';
  }

  private static transactionType(s: Stored): MpesaExpressTransactionType {
    return (MPESA_EXPRESS_TRANSACTION_TYPES as readonly string[]).includes(s.transaction_type ?? '')
      ? (s.transaction_type as MpesaExpressTransactionType)
      : 'CustomerPayBillOnline';
  }

  /** Whether requests can be sent now, from a row as read. */
  private readiness(r: Awaited<ReturnType<MpesaExpressSettingsService['row']>>): Readiness {
    if (!r) return { ok: false, problem: NOT_SET_UP };
    if (!r.isActive) return { ok: false, problem: 'M-Pesa Express is switched off: an owner or admin switches it on in Settings → M-Pesa Express' };
    const s = r.stored;
    const missing = SECRET_FIELDS.filter((f) => !s[f]);
    if (!s.short_code || missing.length) {
      return { ok: false, problem: `M-Pesa Express lacks its ${[!s.short_code && 'short code', ...missing.map((f) => SECRET_LABELS[f])].filter(Boolean).join(', ')}: set them in Settings → M-Pesa Express` };
    }
    const transactionType = MpesaExpressSettingsService.transactionType(s);
    if (transactionType === 'CustomerBuyGoodsOnline' && !s.till_number) {
      return { ok: false, problem: 'M-Pesa Express is set up for a till but has no till number: set it in Settings → M-Pesa Express' };
    }
    const callbackBase = this.callbackBase;
    if (!callbackBase) {
      return {
        ok: false,
        problem:
          'PUBLIC_URL is not set: M-Pesa could not tell this installation that a customer paid. Its administrator sets PUBLIC_URL to the https address the internet reaches it at.',
      };
    }
    return {
      ok: true,
      callbackBase,
      account: {
        baseUrl: this.baseUrl(s),
        consumerKey: s.consumer_key!,
        consumerSecret: s.consumer_secret!,
        shortCode: s.short_code,
        passkey: s.passkey!,
        transactionType,
        tillNumber: s.till_number ?? null,
      },
    };
  }

  /** The organization's set-up for sending requests, or a 409 saying what is missing. */
  async account(orgId: string): Promise<{ account: DarajaAccount; callbackBase: string }> {
    const ready = this.readiness(await this.row(orgId));
    if (!ready.ok) throw Errors.conflict(ready.problem);
    return ready;
  }

  async read(orgId: string): Promise<MpesaExpressSettings> {
    const r = await this.row(orgId);
    const s = r?.stored ?? {};
    const ready = this.readiness(r);
    return {
      configured: Boolean(r),
      is_active: r?.isActive ?? false,
      environment: MpesaExpressSettingsService.environment(s),
      short_code: s.short_code ?? null,
      transaction_type: MpesaExpressSettingsService.transactionType(s),
      till_number: s.till_number ?? null,
      consumer_key: mask(s.consumer_key),
      consumer_secret: mask(s.consumer_secret),
      passkey: mask(s.passkey),
      callback_base: this.callbackBase,
      ready: ready.ok,
      problem: ready.ok ? null : ready.problem,
      updated_at: r?.updatedAt.toISOString() ?? null,
    };
  }

  async update(orgId: string, user: AuthUser, input: z.output<typeof ZMpesaExpressInputSchema>): Promise<MpesaExpressSettings> {
    const before = await this.row(orgId);
    const old = before?.stored ?? {};
    const next: Stored = {
      environment: input.environment,
      short_code: input.short_code,
      transaction_type: input.transaction_type,
      ...(input.transaction_type === 'CustomerBuyGoodsOnline' && input.till_number ? { till_number: input.till_number } : {}),
      ...(old.base_url ? { base_url: old.base_url } : {}),
    };
    Object.assign(next, keptSecrets(SECRET_FIELDS, input, old));
    // A changed app or environment starts without the previous one's kept access token (DarajaClient keys them by app).
    const config_enc = this.box.seal(JSON.stringify(next));
    await this.database.db.$transaction(async (tx) => {
      await saveProviderRow(tx, orgId, MPESA_EXPRESS_PROVIDER, config_enc, input.is_active);
      const changed = SECRET_FIELDS.filter((f) => next[f] !== old[f]).map((f) => SECRET_LABELS[f]);
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'mpesa_express.update',
          entityType: 'payment_provider',
          entityId: MPESA_EXPRESS_PROVIDER,
          description:
            `M-Pesa Express set to ${input.environment}, ${input.transaction_type === 'CustomerBuyGoodsOnline' ? `till ${input.till_number} (store ${input.short_code})` : `paybill ${input.short_code}`}` +
            `${input.is_active ? '' : ', switched off'}${changed.length ? `; new ${changed.join(', ')}` : ''} by ${user.username}`,
          metadata: { environment: input.environment, short_code: input.short_code, transaction_type: input.transaction_type, is_active: input.is_active, new_secrets: changed },
        },
        tx,
      );
    });
    return this.read(orgId);
  }

  /** Asks Safaricom for an access token with the stored keys: whether they are right, without asking anyone to pay. */
  async test(orgId: string): Promise<MpesaExpressTestReply> {
    const r = await this.row(orgId);
    if (!r) throw Errors.conflict(NOT_SET_UP);
    const s = r.stored;
    if (!s.consumer_key || !s.consumer_secret) throw Errors.conflict('M-Pesa Express has no consumer key and secret yet: save them first');
    const environment = MpesaExpressSettingsService.environment(s);
    try {
      await this.daraja.accessToken(
        { baseUrl: this.baseUrl(s), consumerKey: s.consumer_key, consumerSecret: s.consumer_secret },
        true,
      );
      return { ok: true, message: `Safaricom accepted the consumer key and secret (${environment})` };
    } catch (e) {
      if (!(e instanceof DarajaError)) throw e;
      return { ok: false, message: `Safaricom did not accept the keys (${environment}): ${e.message}` };
    }
  }
}
