import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { SmsProviderService, type SmsRoute } from '../settings/sms-provider.service.js';
import { sendSms } from './sms-adapters.js';

/** Wait after the 1st, 2nd, ... failed attempt; after the last, the message is failed. */
export const RETRY_DELAYS_S = [30, 120, 600, 3_600, 21_600] as const;
/** A claimed message not finished within this lease is claimed again (its process died). */
const LEASE_S = 300;
const BATCH = 20;
const MAX_BATCHES = 50;

interface Claimed {
  organization_id: string;
  message_id: number;
  recipient_number: string | null;
  forwarded_message: string | null;
  delivery_attempts: number;
}

export interface DrainResult {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Delivers queued reply SMS. Claims batches with FOR UPDATE SKIP LOCKED (so
 * several API processes share the queue without sending a message twice),
 * sends each through the organization's provider (else the installation's),
 * and records sent, or a retry after 30 s, 2 min, 10 min, 1 h and 6 h, then
 * failed. Organizations without any provider keep their messages queued.
 */
@Injectable()
export class OutboxService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<DrainResult> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly sms: SmsProviderService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sends everything due now; one drain at a time per process. */
  drain(): Promise<DrainResult> {
    this.draining ??= this.run().finally(() => (this.draining = null));
    return this.draining;
  }

  private async claim(): Promise<Claimed[]> {
    // Cross-organization by design: the worker serves every organization. Without an installation-wide
    // provider, only the organizations with their own can send: their pending messages are read through
    // messages_outbox_pending, and the replies piling up for the others are not read at all.
    let scope = Prisma.empty;
    if (!this.sms.hasGlobalRoute) {
      const routed = await this.database.platform.$queryRaw<{ organization_id: string }[]>`
        SELECT DISTINCT organization_id FROM payment_providers
        WHERE is_active AND provider IN ('africastalking', 'sms_webhook')`;
      if (!routed.length) return [];
      scope = Prisma.sql`AND organization_id = ANY(${routed.map((r) => r.organization_id)}::text[])`;
    }
    return this.database.platform.$queryRaw<Claimed[]>`
      UPDATE messages m
      SET delivery_status = 'sending'::"DeliveryStatus", next_attempt_at = now() + make_interval(secs => ${LEASE_S}::int)
      FROM (
        SELECT organization_id, message_id FROM messages
        WHERE delivery_status IN ('queued'::"DeliveryStatus", 'sending'::"DeliveryStatus")
          AND ((delivery_status = 'queued'::"DeliveryStatus" AND (next_attempt_at IS NULL OR next_attempt_at <= now()))
            OR (delivery_status = 'sending'::"DeliveryStatus" AND next_attempt_at <= now()))
          ${scope}
        ORDER BY next_attempt_at NULLS FIRST, message_id
        LIMIT ${BATCH}::int
        FOR UPDATE SKIP LOCKED
      ) c
      WHERE m.organization_id = c.organization_id AND m.message_id = c.message_id
      RETURNING m.organization_id, m.message_id, m.recipient_number, m.forwarded_message, m.delivery_attempts`;
  }

  private async run(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
    const routes = new Map<string, SmsRoute | null>();
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const claimed = await this.claim();
      if (!claimed.length) break;
      for (const m of claimed) {
        if (!routes.has(m.organization_id)) routes.set(m.organization_id, await this.sms.routeFor(m.organization_id));
        const route = routes.get(m.organization_id)!;
        const where = { organization_id_id: { organization_id: m.organization_id, id: m.message_id } };
        if (!route || !m.recipient_number || !m.forwarded_message) {
          // The provider went away between claim and send: back in the queue, no attempt counted.
          await this.database.db.message.update({ where, data: { delivery_status: 'queued', next_attempt_at: null } });
          continue;
        }
        const sent = await sendSms(route, { organizationId: m.organization_id, messageId: m.message_id, to: m.recipient_number, text: m.forwarded_message });
        const attempts = m.delivery_attempts + 1;
        if (sent.ok) {
          await this.database.db.message.update({
            where,
            data: { delivery_status: 'sent', delivery_attempts: attempts, sent_at: new Date(), provider_message_id: sent.providerMessageId, last_delivery_error: null, next_attempt_at: null },
          });
          result.sent++;
        } else if (attempts > RETRY_DELAYS_S.length) {
          await this.database.db.message.update({
            where,
            data: { delivery_status: 'failed', delivery_attempts: attempts, last_delivery_error: sent.error.slice(0, 1000), next_attempt_at: new Date() },
          });
          this.logger.warn(`message ${m.organization_id}/${m.message_id} failed after ${attempts} attempts: ${sent.error}`);
          result.failed++;
        } else {
          await this.database.db.message.update({
            where,
            data: {
              delivery_status: 'queued',
              delivery_attempts: attempts,
              last_delivery_error: sent.error.slice(0, 1000),
              next_attempt_at: new Date(Date.now() + RETRY_DELAYS_S[attempts - 1]! * 1000),
            },
          });
          result.retrying++;
        }
      }
    }
    return result;
  }

  onApplicationBootstrap(): void {
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () => void this.drain().catch((e) => this.logger.error(`outbox drain failed: ${(e as Error).message}`)),
      this.config.outbox.pollMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.draining?.catch(() => undefined);
  }
}
