import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_TEXT_NAME, type SmsProvider, type SmsProviderInput, type SmsProviderName } from '@kidogo/contracts';
import { replyLanguage } from '@kidogo/mobile-money';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SecretBox } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { toSmsProvider, type SmsConfig } from './settings.mapper.js';

const LANGUAGE_NAMES = { en: 'English', sw: 'Kiswahili', fr: 'French' } as const;

export const SMS_PROVIDER_ROWS = ['africastalking', 'sms_webhook'] as const;
const SECRET_FIELDS = ['api_key', 'secret'] as const;

/** Where one organization's outgoing SMS go. */
export type SmsRoute =
  | { kind: 'africastalking'; username: string; apiKey: string; senderId: string | null; baseUrl: string }
  | { kind: 'webhook'; url: string; secret: string | null };

/**
 * The organization's SMS provider: a payment_providers row named
 * africastalking or sms_webhook whose config is SecretBox.seal(JSON) (the
 * admin console writes the same rows with the same encoding). At most one of
 * the two is active; without one, the installation's SMS_PROVIDER applies.
 */
@Injectable()
export class SmsProviderService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private decode(sealed: string): SmsConfig {
    try {
      const parsed = JSON.parse(this.box.open(sealed)) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as SmsConfig) : {};
    } catch {
      return {};
    }
  }

  async read(orgId: string): Promise<SmsProvider> {
    const [rows, org] = await Promise.all([
      this.database.db.paymentProvider.findMany({
        where: { organization_id: orgId, provider: { in: [...SMS_PROVIDER_ROWS] } },
        orderBy: [{ is_active: 'desc' }, { updated_at: 'desc' }],
        take: 1,
      }),
      this.database.db.organization.findUnique({ where: { id: orgId }, select: { reply_language: true, text_name: true } }),
    ]);
    const own = { reply_language: replyLanguage(org?.reply_language), text_name: org?.text_name ?? null };
    const row = rows[0];
    if (!row) return { ...toSmsProvider('none', {}, false, this.config.sms.provider, null), ...own };
    return {
      ...toSmsProvider(row.provider as SmsProviderName, this.decode(row.config_enc), row.is_active, this.config.sms.provider, row.updated_at),
      ...own,
    };
  }

  async update(orgId: string, user: AuthUser, input: SmsProviderInput): Promise<SmsProvider> {
    await this.database.db.$transaction(async (tx) => {
      if (input.reply_language || input.text_name !== undefined) {
        // The texts to customers begin with the name from now on (trigger 0089_text_name); those queued already keep theirs.
        await tx.organization.update({
          where: { id: orgId },
          data: { reply_language: input.reply_language, text_name: input.text_name },
        });
      }
      if (input.provider === 'none') {
        await tx.paymentProvider.updateMany({
          where: { organization_id: orgId, provider: { in: [...SMS_PROVIDER_ROWS] } },
          data: { is_active: false },
        });
      } else {
        const existing = await tx.paymentProvider.findUnique({
          where: { organization_id_provider: { organization_id: orgId, provider: input.provider } },
        });
        const old = existing ? this.decode(existing.config_enc) : {};
        const merged: SmsConfig = {};
        for (const [k, v] of Object.entries(input.config)) if (v !== undefined && v !== '') merged[k] = v;
        for (const field of SECRET_FIELDS) {
          const given = merged[field];
          const kept = old[field];
          // A secret left out, or sent back as the masked value it was read as, keeps the stored one.
          if (kept && (given === undefined || given === toSmsProvider(input.provider, { [field]: kept }, true, 'none', null).config[field])) {
            merged[field] = kept;
          }
        }
        if (input.provider === 'africastalking' && !merged.api_key) {
          throw Errors.badRequest('config.api_key', 'is required for africastalking');
        }
        const config_enc = this.box.seal(JSON.stringify(merged));
        await tx.paymentProvider.upsert({
          where: { organization_id_provider: { organization_id: orgId, provider: input.provider } },
          create: { organization_id: orgId, provider: input.provider, config_enc, is_active: input.is_active },
          update: { config_enc, is_active: input.is_active },
        });
        if (input.is_active) {
          await tx.paymentProvider.updateMany({
            where: { organization_id: orgId, provider: { in: SMS_PROVIDER_ROWS.filter((p) => p !== input.provider) } },
            data: { is_active: false },
          });
        }
      }
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'sms_provider.update',
          entityType: 'payment_provider',
          entityId: input.provider,
          description: `SMS provider set to ${input.provider}${input.provider !== 'none' && !input.is_active ? ' (inactive)' : ''}${
            input.reply_language ? `, replies in ${LANGUAGE_NAMES[input.reply_language]}` : ''
          }${input.text_name !== undefined ? `, texts begin with ${input.text_name ?? DEFAULT_TEXT_NAME}` : ''} by ${user.username}`,
        },
        tx,
      );
    });
    return this.read(orgId);
  }

  /** The route for an organization's outgoing SMS, or null: messages then stay queued. */
  async routeFor(orgId: string): Promise<SmsRoute | null> {
    const row = await this.database.db.paymentProvider.findFirst({
      where: { organization_id: orgId, provider: { in: [...SMS_PROVIDER_ROWS] }, is_active: true },
      orderBy: { updated_at: 'desc' },
    });
    if (row) {
      const c = this.decode(row.config_enc);
      if (row.provider === 'africastalking' && c.username && c.api_key) {
        return { kind: 'africastalking', username: c.username, apiKey: c.api_key, senderId: c.sender_id ?? null, baseUrl: c.base_url ?? this.config.sms.atBaseUrl };
      }
      if (row.provider === 'sms_webhook' && c.url) return { kind: 'webhook', url: c.url, secret: c.secret ?? null };
      return null;
    }
    const s = this.config.sms;
    if (s.provider === 'africastalking' && s.atUsername && s.atApiKey) {
      return { kind: 'africastalking', username: s.atUsername, apiKey: s.atApiKey, senderId: s.atSenderId ?? null, baseUrl: s.atBaseUrl };
    }
    if (s.provider === 'webhook' && s.webhookUrl) return { kind: 'webhook', url: s.webhookUrl, secret: s.webhookSecret ?? null };
    return null;
  }

  /** True when every organization without its own provider still has one (SMS_PROVIDER set). */
  get hasGlobalRoute(): boolean {
    const s = this.config.sms;
    return (s.provider === 'africastalking' && Boolean(s.atUsername && s.atApiKey)) || (s.provider === 'webhook' && Boolean(s.webhookUrl));
  }
}
