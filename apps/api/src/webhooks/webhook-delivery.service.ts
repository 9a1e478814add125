import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SecretBox } from '../common/crypto.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { postEvent, signatureHeader, type SendOutcome } from './webhook-sender.js';

/** Wait after the 1st, 2nd, ... failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 24 h; after the 7th, failed. */
export const WEBHOOK_RETRY_DELAYS_S = [60, 300, 1_800, 7_200, 21_600, 86_400] as const;
/** A claimed delivery not finished within this lease is claimed again (its process died). */
const LEASE_S = 120;
const BATCH = 16;
/** At most this many deliveries of one endpoint in a batch: its receiver gets at most this many requests at once from a process. */
export const WEBHOOK_PER_ENDPOINT = 4;
const MAX_BATCHES = 25;
/** Delivered and failed deliveries are kept this long for the delivery log, then deleted. */
export const WEBHOOK_KEEP_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;

export interface ClaimedDelivery {
  organization_id: string;
  delivery_id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  attempts: number;
  url: string;
  secret_enc: string;
}

export interface WebhookDrainResult {
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Sends the queued event deliveries (webhook_deliveries). Claims batches with
 * FOR UPDATE SKIP LOCKED, so several API processes share the queue and no
 * delivery is sent twice at once, a few of each endpoint at a time and
 * endpoint by endpoint (claim); sends each batch concurrently, signed with
 * its endpoint's current secret to its current address; records delivered,
 * or a retry after 1 min, 5 min, 30 min, 2 h, 6 h and 24 h, then failed.
 * Deliveries of a paused endpoint are not claimed: they wait for it.
 * Receivers must still expect an event twice (a process that dies after
 * sending and before recording): the event id is the key to deduplicate on.
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<WebhookDrainResult> | null = null;
  private prunedAt = 0;

  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sends everything due now; one drain at a time per process. */
  drain(): Promise<WebhookDrainResult> {
    this.draining ??= this.run().finally(() => (this.draining = null));
    return this.draining;
  }

  /** Sends one delivery now (a test event, a redelivery) and records the attempt; returns what the endpoint answered. */
  async sendNow(d: ClaimedDelivery, opts: { retry: boolean }): Promise<SendOutcome> {
    const outcome = await this.send(d);
    await this.record(d, outcome, opts.retry);
    return outcome;
  }

  private send(d: ClaimedDelivery): Promise<SendOutcome> {
    const secret = this.box.open(d.secret_enc);
    return postEvent(
      d.url,
      d.payload,
      {
        'Kidogo-Signature': signatureHeader(secret, d.payload),
        'Kidogo-Event': d.event_type,
        'Kidogo-Event-Id': d.event_id,
        'Kidogo-Delivery': String(d.delivery_id),
      },
      { allowPrivate: this.config.webhookAllowPrivate },
    );
  }

  private async record(d: ClaimedDelivery, o: SendOutcome, retry: boolean): Promise<'delivered' | 'retrying' | 'failed'> {
    const attempts = d.attempts + 1;
    const delay = retry ? WEBHOOK_RETRY_DELAYS_S[attempts - 1] : undefined;
    const status = o.ok ? 'delivered' : delay === undefined ? 'failed' : 'pending';
    await this.database.execute(Prisma.sql`
      UPDATE webhook_deliveries SET status = ${status}::"WebhookDeliveryStatus", attempts = ${attempts}::int, last_attempt_at = now(),
             delivered_at = ${o.ok ? Prisma.sql`now()` : Prisma.sql`NULL`},
             next_attempt_at = ${status === 'pending' ? Prisma.sql`now() + make_interval(secs => ${delay!}::int)` : Prisma.sql`NULL`},
             response_status = ${o.status}::int, response_body = ${o.body}, duration_ms = ${o.ms}::int,
             last_error = ${o.ok ? null : o.error.slice(0, 1000)}
      WHERE organization_id = ${d.organization_id} AND delivery_id = ${d.delivery_id}::int`);
    if (status === 'failed' && retry) {
      this.logger.warn(`webhook delivery ${d.organization_id}/${d.delivery_id} failed after ${attempts} attempts: ${o.ok ? '' : o.error}`);
      await this.notifyGaveUp(d, attempts, o.ok ? '' : o.error);
    }
    return status === 'pending' ? 'retrying' : status;
  }

  /**
   * Tells the organization (its notifications, under the bell) that an
   * endpoint missed an event for good: at most once a day an endpoint, so a
   * receiver that is down for a week says so once a day, not once an event.
   */
  private async notifyGaveUp(d: ClaimedDelivery, attempts: number, error: string): Promise<void> {
    const about = `Webhook endpoint ${d.url}`;
    const message =
      `${about} missed a ${d.event_type} event: ${attempts} attempts over a day failed (last: ${error}). ` +
      'Owners and admins: Settings → Webhooks → Deliveries, then Send Again once it is fixed.';
    await this.database.execute(Prisma.sql`
      INSERT INTO notifications (organization_id, message, level, created_by)
      SELECT ${d.organization_id}, ${message}, 'warning', 'webhooks'
      WHERE NOT EXISTS (
        SELECT 1 FROM notifications
        WHERE organization_id = ${d.organization_id} AND created_by = 'webhooks' AND created_at > now() - interval '1 day'
          AND starts_with(message, ${`${about} missed`})
      )`);
  }

  /**
   * Claims up to BATCH due deliveries, at most WEBHOOK_PER_ENDPOINT of any one
   * endpoint, taken round-robin: each endpoint's most overdue first, then
   * each one's second, and so on. A burst of one organization (an import, a
   * resumed endpoint's backlog) thus goes out beside every other
   * organization's events, not before them, and its receiver gets at most
   * WEBHOOK_PER_ENDPOINT requests at once from a process.
   */
  private claim(): Promise<ClaimedDelivery[]> {
    // Cross-organization by design: the worker serves every organization's endpoints.
    // The candidates are picked without locking (at most WEBHOOK_PER_ENDPOINT an endpoint, then BATCH of them);
    // only those are then locked, skipping any another process is claiming.
    const due = Prisma.sql`d.status IN ('pending'::"WebhookDeliveryStatus", 'delivering'::"WebhookDeliveryStatus") AND d.next_attempt_at <= now()`;
    return this.database.query<ClaimedDelivery>(Prisma.sql`
      UPDATE webhook_deliveries w
      SET status = 'delivering'::"WebhookDeliveryStatus", next_attempt_at = now() + make_interval(secs => ${LEASE_S}::int)
      FROM (
        SELECT d.organization_id, d.delivery_id FROM webhook_deliveries d
        WHERE (d.organization_id, d.delivery_id) IN (
          SELECT q.organization_id, q.delivery_id
          FROM webhook_endpoints e
          CROSS JOIN LATERAL (
            SELECT d.organization_id, d.delivery_id, d.next_attempt_at,
                   row_number() OVER (ORDER BY d.next_attempt_at, d.delivery_id) AS place
            FROM (
              SELECT d.organization_id, d.delivery_id, d.next_attempt_at FROM webhook_deliveries d
              WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.endpoint_id AND ${due}
              ORDER BY d.next_attempt_at, d.delivery_id
              LIMIT ${WEBHOOK_PER_ENDPOINT}::int
            ) d
          ) q
          -- Evaluated once (an uncorrelated sublink): with nothing due, no endpoint is looked at.
          WHERE e.is_active AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE ${due})
          ORDER BY q.place, q.next_attempt_at, q.delivery_id
          LIMIT ${BATCH}::int
        ) AND ${due}
        FOR UPDATE OF d SKIP LOCKED
      ) c, webhook_endpoints e
      WHERE w.organization_id = c.organization_id AND w.delivery_id = c.delivery_id
        AND e.organization_id = w.organization_id AND e.endpoint_id = w.endpoint_id
      RETURNING w.organization_id, w.delivery_id, w.endpoint_id, w.event_id::text AS event_id, w.event_type, w.payload::text AS payload,
                w.attempts, e.url, e.secret_enc`);
  }

  private async run(): Promise<WebhookDrainResult> {
    const result: WebhookDrainResult = { delivered: 0, retrying: 0, failed: 0 };
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const claimed = await this.claim();
      if (!claimed.length) break;
      const outcomes = await Promise.all(
        claimed.map(async (d) => {
          try {
            return await this.record(d, await this.send(d), true);
          } catch (e) {
            this.logger.error(`webhook delivery ${d.organization_id}/${d.delivery_id}: ${(e as Error).message}`);
            return 'retrying' as const;
          }
        }),
      );
      for (const o of outcomes) result[o]++;
    }
    await this.prune();
    return result;
  }

  /** Deletes what the delivery log no longer shows: done deliveries older than WEBHOOK_KEEP_DAYS, at most hourly. */
  private async prune(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    await this.database.execute(Prisma.sql`
      DELETE FROM webhook_deliveries
      WHERE status IN ('delivered'::"WebhookDeliveryStatus", 'failed'::"WebhookDeliveryStatus")
        AND created_at < now() - make_interval(days => ${WEBHOOK_KEEP_DAYS}::int)`);
  }

  onApplicationBootstrap(): void {
    if (!this.config.outbox.enabled) return;
    this.timer = setInterval(
      () => void this.drain().catch((e) => this.logger.error(`webhook drain failed: ${(e as Error).message}`)),
      this.config.outbox.pollMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.draining?.catch(() => undefined);
  }
}
