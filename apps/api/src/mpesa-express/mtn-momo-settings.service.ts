import { Inject, Injectable } from '@nestjs/common';
import {
  MTN_MOMO_BASE_URLS,
  MTN_MOMO_TARGETS,
  mtnMomoTargetOf,
  type MtnMomoSettings,
  type MtnMomoTarget,
  type MtnMomoTestReply,
  type ZMtnMomoInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { mask, SecretBox } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { keptSecrets, readProviderRow, saveProviderRow } from './provider-http.js';
import { MomoClient, MomoError, type MomoAccount } from './mtn-momo.js';

/** The payment_providers row (provider name) that holds an organization's MTN MoMo set-up, sealed. */
export const MTN_MOMO_PROVIDER = 'mtn_momo';
/** Where MTN posts each request's result: PUBLIC_URL + this + the request's secret token. */
export const MTN_CALLBACK_PATH = '/payg/external/mtn-momo/';
const SECRET_FIELDS = ['api_key', 'subscription_key'] as const;
const SECRET_LABELS: Record<(typeof SECRET_FIELDS)[number], string> = { api_key: 'API key', subscription_key: 'subscription key' };

/** What the row holds. base_url is the super admin's (Payment Providers tab): a proxy, a test double, a market's own gateway. */
interface Stored {
  target_environment?: string;
  api_user?: string;
  api_key?: string;
  subscription_key?: string;
  base_url?: string;
}

export type MomoReadiness = { ok: true; account: MomoAccount; callbackBase: string } | { ok: false; problem: string };

const NOT_SET_UP = 'MTN MoMo is not set up: an owner or admin sets it up in Settings → MTN MoMo';

@Injectable()
export class MtnMomoSettingsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly momo: MomoClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private row(orgId: string) {
    return readProviderRow<Stored>(this.database, this.box, orgId, MTN_MOMO_PROVIDER);
  }

  get callbackBase(): string | null {
    return this.config.publicUrl ? `${this.config.publicUrl}${MTN_CALLBACK_PATH}` : null;
  }

  private static target(s: Stored): MtnMomoTarget {
    return mtnMomoTargetOf(s.target_environment ?? '')?.target ?? 'sandbox';
  }

  /** The organization's own base_url, else MTN_MOMO_BASE_URL, else MTN's: the sandbox's, or the production gateway. */
  private baseUrl(s: Stored): string {
    const target = MtnMomoSettingsService.target(s);
    return (s.base_url || this.config.mtnMomoBaseUrl || MTN_MOMO_BASE_URLS[target === 'sandbox' ? 'sandbox' : 'production']).replace(/\/+$/, '');
  }

  private readiness(r: Awaited<ReturnType<MtnMomoSettingsService['row']>>): MomoReadiness {
    if (!r) return { ok: false, problem: NOT_SET_UP };
    if (!r.isActive) return { ok: false, problem: 'MTN MoMo is switched off: an owner or admin switches it on in Settings → MTN MoMo' };
    const s = r.stored;
    const missing = [!s.api_user && 'API user', ...SECRET_FIELDS.filter((f) => !s[f]).map((f) => SECRET_LABELS[f])].filter(Boolean);
    if (missing.length) return { ok: false, problem: `MTN MoMo lacks its ${missing.join(', ')}: set them in Settings → MTN MoMo` };
    const callbackBase = this.callbackBase;
    if (!callbackBase) {
      return {
        ok: false,
        problem:
          'PUBLIC_URL is not set: MTN could not tell this installation that a customer paid. Its administrator sets PUBLIC_URL to the https address the internet reaches it at.',
      };
    }
    const target = MtnMomoSettingsService.target(s);
    return {
      ok: true,
      callbackBase,
      account: {
        baseUrl: this.baseUrl(s),
        target,
        currency: mtnMomoTargetOf(target)!.currency,
        apiUser: s.api_user!,
        apiKey: s.api_key!,
        subscriptionKey: s.subscription_key!,
      },
    };
  }

  /** Whether requests can be sent now, and in what money. */
  async status(orgId: string): Promise<{ ready: boolean; problem: string | null; currency: string }> {
    const r = await this.row(orgId);
    const ready = this.readiness(r);
    return { ready: ready.ok, problem: ready.ok ? null : ready.problem, currency: mtnMomoTargetOf(MtnMomoSettingsService.target(r?.stored ?? {}))!.currency };
  }

  /** The organization's set-up for sending requests, or a 409 saying what is missing. */
  async account(orgId: string): Promise<{ account: MomoAccount; callbackBase: string }> {
    const ready = this.readiness(await this.row(orgId));
    if (!ready.ok) throw Errors.conflict(ready.problem);
    return ready;
  }

  async read(orgId: string): Promise<MtnMomoSettings> {
    const r = await this.row(orgId);
    const s = r?.stored ?? {};
    const ready = this.readiness(r);
    const target = MtnMomoSettingsService.target(s);
    return {
      configured: Boolean(r),
      is_active: r?.isActive ?? false,
      target_environment: target,
      currency: mtnMomoTargetOf(target)!.currency,
      api_user: s.api_user ?? null,
      api_key: mask(s.api_key),
      subscription_key: mask(s.subscription_key),
      callback_base: this.callbackBase,
      callback_host: this.config.publicUrl ? new URL(this.config.publicUrl).host : null,
      ready: ready.ok,
      problem: ready.ok ? null : ready.problem,
      updated_at: r?.updatedAt.toISOString() ?? null,
    };
  }

  async update(orgId: string, user: AuthUser, input: z.output<typeof ZMtnMomoInputSchema>): Promise<MtnMomoSettings> {
    const before = await this.row(orgId);
    const old = before?.stored ?? {};
    const next: Stored = {
      target_environment: input.target_environment,
      api_user: input.api_user.toLowerCase(),
      ...(old.base_url ? { base_url: old.base_url } : {}),
    };
    Object.assign(next, keptSecrets(SECRET_FIELDS, input, old));
    const market = MTN_MOMO_TARGETS.find((t) => t.target === input.target_environment)!;
    const config_enc = this.box.seal(JSON.stringify(next));
    await this.database.db.$transaction(async (tx) => {
      await saveProviderRow(tx, orgId, MTN_MOMO_PROVIDER, config_enc, input.is_active);
      const changed = SECRET_FIELDS.filter((f) => next[f] !== old[f]).map((f) => SECRET_LABELS[f]);
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'mtn_momo.update',
          entityType: 'payment_provider',
          entityId: MTN_MOMO_PROVIDER,
          description:
            `MTN MoMo set to ${market.country} (${market.target}), API user ${next.api_user}` +
            `${input.is_active ? '' : ', switched off'}${changed.length ? `; new ${changed.join(', ')}` : ''} by ${user.username}`,
          metadata: { target_environment: input.target_environment, api_user: next.api_user, is_active: input.is_active, new_secrets: changed },
        },
        tx,
      );
    });
    return this.read(orgId);
  }

  /** Asks MTN for an access token with the stored API user and keys: whether they are right, without asking anyone to pay. */
  async test(orgId: string): Promise<MtnMomoTestReply> {
    const r = await this.row(orgId);
    if (!r) throw Errors.conflict(NOT_SET_UP);
    const s = r.stored;
    if (!s.api_user || !s.api_key || !s.subscription_key) throw Errors.conflict('MTN MoMo has no API user and keys yet: save them first');
    const target = MtnMomoSettingsService.target(s);
    try {
      await this.momo.accessToken({ baseUrl: this.baseUrl(s), apiUser: s.api_user, apiKey: s.api_key, subscriptionKey: s.subscription_key }, true);
      return { ok: true, message: `MTN accepted the API user and keys (${target})` };
    } catch (e) {
      if (!(e instanceof MomoError)) throw e;
      return { ok: false, message: `MTN did not accept the keys (${target}): ${e.message}` };
    }
  }
}
