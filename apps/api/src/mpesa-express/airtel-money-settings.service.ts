import { Inject, Injectable } from '@nestjs/common';
import {
  AIRTEL_MONEY_BASE_URLS,
  airtelMoneyCountryOf,
  type AirtelMoneyCountry,
  type AirtelMoneyEnvironment,
  type AirtelMoneySettings,
  type AirtelMoneyTestReply,
  type ZAirtelMoneyInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { mask, SecretBox } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { keptSecrets, readProviderRow, saveProviderRow } from './provider-http.js';
import { AirtelError, AirtelMoneyClient, type AirtelAccount } from './airtel-money.js';

/** The payment_providers row (provider name) that holds an organization's Airtel Money set-up, sealed. */
export const AIRTEL_MONEY_PROVIDER = 'airtel_money';
/** Where Airtel tells the installation how a transaction ended: PUBLIC_URL + this, set once on the Airtel app. */
export const AIRTEL_CALLBACK_PATH = '/payg/external/airtel-money/callback';

/** What the row holds. base_url is the super admin's (Payment Providers tab): a proxy, a test double, a market's own gateway. */
interface Stored {
  country?: string;
  environment?: string;
  client_id?: string;
  client_secret?: string;
  base_url?: string;
}

export type AirtelReadiness = { ok: true; account: AirtelAccount } | { ok: false; problem: string };

const NOT_SET_UP = 'Airtel Money is not set up: an owner or admin sets it up in Settings → Airtel Money';

const countryOf = (s: Stored): AirtelMoneyCountry => airtelMoneyCountryOf(s.country ?? '')?.country ?? 'KE';
const environmentOf = (s: Stored): AirtelMoneyEnvironment => (s.environment === 'production' ? 'production' : 'staging');

@Injectable()
export class AirtelMoneySettingsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly airtel: AirtelMoneyClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private row(orgId: string) {
    return readProviderRow<Stored>(this.database, this.box, orgId, AIRTEL_MONEY_PROVIDER);
  }

  get callbackUrl(): string | null {
    return this.config.publicUrl ? `${this.config.publicUrl}${AIRTEL_CALLBACK_PATH}` : null;
  }

  /** The organization's own base_url, else AIRTEL_MONEY_BASE_URL, else Airtel's: staging's or production's. */
  private baseUrl(s: Stored): string {
    return (s.base_url || this.config.airtelMoneyBaseUrl || AIRTEL_MONEY_BASE_URLS[environmentOf(s)]).replace(/\/+$/, '');
  }

  private readiness(r: Awaited<ReturnType<AirtelMoneySettingsService['row']>>): AirtelReadiness {
    if (!r) return { ok: false, problem: NOT_SET_UP };
    if (!r.isActive) return { ok: false, problem: 'Airtel Money is switched off: an owner or admin switches it on in Settings → Airtel Money' };
    const s = r.stored;
    const missing = [!s.client_id && 'client id', !s.client_secret && 'client secret'].filter(Boolean);
    if (missing.length) return { ok: false, problem: `Airtel Money lacks its ${missing.join(', ')}: set them in Settings → Airtel Money` };
    if (!this.callbackUrl) {
      return {
        ok: false,
        problem:
          'PUBLIC_URL is not set: Airtel could not tell this installation that a customer paid. Its administrator sets PUBLIC_URL to the https address the internet reaches it at.',
      };
    }
    const market = airtelMoneyCountryOf(countryOf(s))!;
    return {
      ok: true,
      account: { baseUrl: this.baseUrl(s), country: market.country, currency: market.currency, clientId: s.client_id!, clientSecret: s.client_secret! },
    };
  }

  /** Whether requests can be sent now, and in what money. */
  async status(orgId: string): Promise<{ ready: boolean; problem: string | null; currency: string }> {
    const r = await this.row(orgId);
    const ready = this.readiness(r);
    return { ready: ready.ok, problem: ready.ok ? null : ready.problem, currency: airtelMoneyCountryOf(countryOf(r?.stored ?? {}))!.currency };
  }

  /** The organization's set-up for sending requests, or a 409 saying what is missing. */
  async account(orgId: string): Promise<{ account: AirtelAccount }> {
    const ready = this.readiness(await this.row(orgId));
    if (!ready.ok) throw Errors.conflict(ready.problem);
    return ready;
  }

  /** The set-up a request was sent with, to ask Airtel about it: switched off or not (a switched-off app's requests still end). */
  async accountForCheck(orgId: string): Promise<AirtelAccount> {
    const r = await this.row(orgId);
    const s = r?.stored;
    if (!s?.client_id || !s.client_secret) throw Errors.conflict(NOT_SET_UP);
    const market = airtelMoneyCountryOf(countryOf(s))!;
    return { baseUrl: this.baseUrl(s), country: market.country, currency: market.currency, clientId: s.client_id, clientSecret: s.client_secret };
  }

  async read(orgId: string): Promise<AirtelMoneySettings> {
    const r = await this.row(orgId);
    const s = r?.stored ?? {};
    const ready = this.readiness(r);
    const country = countryOf(s);
    return {
      configured: Boolean(r),
      is_active: r?.isActive ?? false,
      country,
      currency: airtelMoneyCountryOf(country)!.currency,
      environment: environmentOf(s),
      client_id: s.client_id ?? null,
      client_secret: mask(s.client_secret),
      callback_url: this.callbackUrl,
      ready: ready.ok,
      problem: ready.ok ? null : ready.problem,
      updated_at: r?.updatedAt.toISOString() ?? null,
    };
  }

  async update(orgId: string, user: AuthUser, input: z.output<typeof ZAirtelMoneyInputSchema>): Promise<AirtelMoneySettings> {
    const before = await this.row(orgId);
    const old = before?.stored ?? {};
    const next: Stored = {
      country: input.country,
      environment: input.environment,
      client_id: input.client_id,
      ...(old.base_url ? { base_url: old.base_url } : {}),
      ...keptSecrets(['client_secret'] as const, input, old),
    };
    const market = airtelMoneyCountryOf(input.country)!;
    const config_enc = this.box.seal(JSON.stringify(next));
    await this.database.db.$transaction(async (tx) => {
      await saveProviderRow(tx, orgId, AIRTEL_MONEY_PROVIDER, config_enc, input.is_active);
      const newSecret = next.client_secret !== old.client_secret;
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'airtel_money.update',
          entityType: 'payment_provider',
          entityId: AIRTEL_MONEY_PROVIDER,
          description:
            `Airtel Money set to ${market.name} (${market.currency}, ${input.environment}), client id ${next.client_id}` +
            `${input.is_active ? '' : ', switched off'}${newSecret ? '; new client secret' : ''} by ${user.username}`,
          metadata: { country: input.country, environment: input.environment, client_id: next.client_id, is_active: input.is_active, new_secret: newSecret },
        },
        tx,
      );
    });
    return this.read(orgId);
  }

  /** Asks Airtel for an access token with the stored client id and secret: whether they are right, without asking anyone to pay. */
  async test(orgId: string): Promise<AirtelMoneyTestReply> {
    const r = await this.row(orgId);
    if (!r) throw Errors.conflict(NOT_SET_UP);
    const s = r.stored;
    if (!s.client_id || !s.client_secret) throw Errors.conflict('Airtel Money has no client id and secret yet: save them first');
    const where = environmentOf(s);
    try {
      await this.airtel.accessToken({ baseUrl: this.baseUrl(s), clientId: s.client_id, clientSecret: s.client_secret }, true);
      return { ok: true, message: `Airtel accepted the client id and secret (${where})` };
    } catch (e) {
      if (!(e instanceof AirtelError)) throw e;
      return { ok: false, message: `Airtel did not accept the client id and secret (${where}): ${e.message}` };
    }
  }
}
