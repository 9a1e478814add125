import { Inject, Injectable } from '@nestjs/common';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  isPrivateAddress,
  type WebhookDelivery,
  type WebhookDeliveryListReply,
  type WebhookDeliveryQuery,
  type WebhookEndpoint,
  type WebhookListReply,
  type WebhookWithSecret,
  type ZWebhookCreateSchema,
  type ZWebhookUpdateSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SecretBox, randomToken } from '../common/crypto.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { AuditService } from '../audit/audit.service.js';
import { DatabaseService } from '../database/database.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { WebhookDeliveryService, type ClaimedDelivery } from './webhook-delivery.service.js';
import { webhookEvent } from './webhook-events.js';

type CreateInput = z.output<typeof ZWebhookCreateSchema>;
type UpdateInput = z.output<typeof ZWebhookUpdateSchema>;

/** Endpoints an organization may have: each event is written once per endpoint, in the transaction that makes it. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  events: string[] | null;
  secret_hint: string;
  is_active: boolean;
  created_at: Date;
  created_by: string | null;
  pending: number;
  failed_7d: number;
  last_at: Date | null;
  last_status: string | null;
  last_response_status: number | null;
  last_error: string | null;
}

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  last_error: string | null;
  payload: Record<string, unknown>;
}

const newSecret = () => `whsec_${randomToken(24)}`;
const hintOf = (secret: string) => `whsec_…${secret.slice(-4)}`;

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpoint_id: r.endpoint_id,
  event_id: r.event_id,
  event_type: r.event_type,
  status: r.status,
  attempts: r.attempts,
  created_at: r.created_at.toISOString(),
  next_attempt_at: r.status === 'pending' || r.status === 'delivering' ? (r.next_attempt_at?.toISOString() ?? null) : null,
  delivered_at: r.delivered_at?.toISOString() ?? null,
  response_status: r.response_status,
  response_body: r.response_body,
  duration_ms: r.duration_ms,
  error: r.last_error,
  payload: r.payload,
});

/**
 * An organization's event webhooks: endpoints (an address, the events it is
 * sent, a signing secret made here and shown once), their delivery log, a
 * test event and redelivery. The events themselves are written by the
 * changes that make them (webhookEventSql) and sent by WebhookDeliveryService.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly database: DatabaseService,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly delivery: WebhookDeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private assertAllowed(url: string): void {
    if (this.config.webhookAllowPrivate) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isPrivateAddress(host)) {
      throw Errors.badRequest('url', `must not be a private or local address (${host}): this installation sends webhooks to public addresses only (WEBHOOK_ALLOW_PRIVATE)`);
    }
  }

  /** The endpoints with their queue and their latest attempt, by a statement per organization. */
  private async rows(orgId: string, id?: number): Promise<EndpointRow[]> {
    return this.database.query<EndpointRow>(Prisma.sql`
      SELECT e.endpoint_id AS id, e.url, e.description, e.events, e.secret_hint, e.is_active, e.created_at, e.created_by,
             (SELECT count(*)::int FROM webhook_deliveries d WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.endpoint_id
                AND d.status IN ('pending'::"WebhookDeliveryStatus", 'delivering'::"WebhookDeliveryStatus")) AS pending,
             (SELECT count(*)::int FROM webhook_deliveries d WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.endpoint_id
                AND d.status = 'failed'::"WebhookDeliveryStatus" AND d.last_attempt_at > now() - interval '7 days') AS failed_7d,
             l.last_attempt_at AS last_at, l.status::text AS last_status, l.response_status AS last_response_status, l.last_error
      FROM webhook_endpoints e
      LEFT JOIN LATERAL (
        SELECT d.last_attempt_at, d.status, d.response_status, d.last_error FROM webhook_deliveries d
        WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.endpoint_id AND d.last_attempt_at IS NOT NULL
        ORDER BY d.last_attempt_at DESC LIMIT 1
      ) l ON true
      WHERE e.organization_id = ${orgId} ${id === undefined ? Prisma.empty : Prisma.sql`AND e.endpoint_id = ${id}::int`}
      ORDER BY e.endpoint_id`);
  }

  private toEndpoint(r: EndpointRow): WebhookEndpoint {
    return {
      id: r.id,
      url: r.url,
      description: r.description,
      events: WEBHOOK_EVENT_TYPES.filter((e) => (r.events ?? []).includes(e)),
      is_active: r.is_active,
      secret_hint: r.secret_hint,
      created_at: r.created_at.toISOString(),
      created_by: r.created_by,
      pending: r.pending,
      failed_7d: r.failed_7d,
      last_attempt: r.last_at
        ? { at: r.last_at.toISOString(), ok: r.last_status === 'delivered', response_status: r.last_response_status, error: r.last_error }
        : null,
    };
  }

  async list(orgId: string): Promise<WebhookListReply> {
    return {
      data: (await this.rows(orgId)).map((r) => this.toEndpoint(r)),
      events: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENTS[type] })),
    };
  }

  async get(orgId: string, id: number): Promise<WebhookEndpoint> {
    const [row] = await this.rows(orgId, id);
    if (!row) throw Errors.notFound('Webhook endpoint');
    return this.toEndpoint(row);
  }

  async create(orgId: string, user: AuthUser, input: CreateInput): Promise<WebhookWithSecret> {
    this.assertAllowed(input.url);
    const secret = newSecret();
    const id = await this.database.db.$transaction(async (tx) => {
      // Serializes creations in the organization, so two at once cannot both pass the limit.
      await tx.$queryRaw`SELECT organization_id FROM organizations WHERE organization_id = ${orgId} FOR UPDATE`;
      const count = await tx.webhookEndpoint.count({ where: { organization_id: orgId } });
      if (count >= MAX_WEBHOOK_ENDPOINTS) {
        throw Errors.conflict(`An organization can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first`);
      }
      const created = await tx.webhookEndpoint.create({
        data: {
          organization_id: orgId,
          url: input.url,
          description: input.description ?? null,
          events: input.events,
          secret_enc: this.box.seal(secret),
          secret_hint: hintOf(secret),
          is_active: input.is_active,
          created_by: user.username,
        },
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'webhook.created',
          entityType: 'webhook',
          entityId: created.id,
          description: `Webhook endpoint ${created.id} (${input.url}) added by ${user.username} for ${input.events.join(', ')}`,
          metadata: { url: input.url, events: input.events, is_active: input.is_active },
        },
        tx,
      );
      return created.id;
    });
    return { ...(await this.get(orgId, id)), secret };
  }

  async update(orgId: string, user: AuthUser, id: number, input: UpdateInput): Promise<WebhookEndpoint> {
    if (input.url !== undefined) this.assertAllowed(input.url);
    await this.database.db.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
      if (!before) throw Errors.notFound('Webhook endpoint');
      const data = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
      };
      await tx.webhookEndpoint.update({ where: { organization_id_id: { organization_id: orgId, id } }, data });
      const changed = Object.keys(data);
      const what = input.is_active === false && before.is_active ? 'paused' : input.is_active === true && !before.is_active ? 'resumed' : 'changed';
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'webhook.updated',
          entityType: 'webhook',
          entityId: id,
          description: `Webhook endpoint ${id} (${input.url ?? before.url}) ${what} by ${user.username} (${changed.join(', ')})`,
          metadata: {
            before: { url: before.url, description: before.description, events: before.events, is_active: before.is_active },
            after: data,
          },
        },
        tx,
      );
    });
    return this.get(orgId, id);
  }

  async remove(orgId: string, user: AuthUser, id: number): Promise<{ message: string }> {
    await this.database.db.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
      if (!before) throw Errors.notFound('Webhook endpoint');
      // Its deliveries go with it (ON DELETE CASCADE).
      await tx.webhookEndpoint.delete({ where: { organization_id_id: { organization_id: orgId, id } } });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'webhook.deleted',
          entityType: 'webhook',
          entityId: id,
          description: `Webhook endpoint ${id} (${before.url}) deleted by ${user.username}`,
          metadata: { url: before.url, events: before.events },
        },
        tx,
      );
    });
    return { message: 'Webhook endpoint deleted' };
  }

  async rotateSecret(orgId: string, user: AuthUser, id: number): Promise<WebhookWithSecret> {
    const secret = newSecret();
    await this.database.db.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findUnique({ where: { organization_id_id: { organization_id: orgId, id } } });
      if (!before) throw Errors.notFound('Webhook endpoint');
      await tx.webhookEndpoint.update({
        where: { organization_id_id: { organization_id: orgId, id } },
        data: { secret_enc: this.box.seal(secret), secret_hint: hintOf(secret) },
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor: user,
          action: 'webhook.secret_rotated',
          entityType: 'webhook',
          entityId: id,
          description: `Signing secret of webhook endpoint ${id} (${before.url}) rotated by ${user.username}`,
        },
        tx,
      );
    });
    return { ...(await this.get(orgId, id)), secret };
  }

  /** Sends a webhook.test event to the endpoint now (paused or not) and returns the delivery with what it answered; not retried. */
  async sendTest(orgId: string, user: AuthUser, id: number): Promise<WebhookDelivery> {
    const event = webhookEvent(orgId, WEBHOOK_TEST_EVENT, { message: `A test event sent by ${user.username} from Kidogo`, endpoint_id: id });
    const [claimed] = await this.database.query<ClaimedDelivery>(Prisma.sql`
      WITH e AS (SELECT organization_id, endpoint_id, url, secret_enc FROM webhook_endpoints WHERE organization_id = ${orgId} AND endpoint_id = ${id}::int),
           d AS (
             INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id, event_type, payload, status, next_attempt_at)
             SELECT organization_id, endpoint_id, ${event.id}::uuid, ${WEBHOOK_TEST_EVENT}, ${JSON.stringify(event)}::json,
                    'delivering'::"WebhookDeliveryStatus", now() + interval '2 minutes'
             FROM e RETURNING organization_id, delivery_id, endpoint_id, event_id, event_type, payload, attempts)
      SELECT d.organization_id, d.delivery_id, d.endpoint_id, d.event_id::text AS event_id, d.event_type, d.payload::text AS payload,
             d.attempts, e.url, e.secret_enc
      FROM d JOIN e ON true`);
    if (!claimed) throw Errors.notFound('Webhook endpoint');
    await this.delivery.sendNow(claimed, { retry: false });
    return this.getDelivery(orgId, claimed.delivery_id);
  }

  /**
   * Sends a delivery again now, whatever became of it (a failed one once the
   * endpoint is fixed, a delivered one the receiver lost): one attempt, then,
   * if it fails, the usual retries from where its attempts are.
   */
  async redeliver(orgId: string, id: number, deliveryId: number): Promise<WebhookDelivery> {
    const [claimed] = await this.database.query<ClaimedDelivery & { status: string }>(Prisma.sql`
      WITH c AS (
        SELECT d.organization_id, d.delivery_id, d.status FROM webhook_deliveries d
        WHERE d.organization_id = ${orgId} AND d.endpoint_id = ${id}::int AND d.delivery_id = ${deliveryId}::int
        FOR UPDATE
      ), u AS (
        UPDATE webhook_deliveries w SET status = 'delivering'::"WebhookDeliveryStatus", next_attempt_at = now() + interval '2 minutes'
        FROM c WHERE w.organization_id = c.organization_id AND w.delivery_id = c.delivery_id AND c.status <> 'delivering'::"WebhookDeliveryStatus"
        RETURNING w.organization_id, w.delivery_id, w.endpoint_id, w.event_id::text AS event_id, w.event_type, w.payload::text AS payload, w.attempts
      )
      SELECT c.status::text AS status, u.organization_id, u.delivery_id, u.endpoint_id, u.event_id, u.event_type, u.payload, u.attempts, e.url, e.secret_enc
      FROM c LEFT JOIN u ON true
      LEFT JOIN webhook_endpoints e ON e.organization_id = u.organization_id AND e.endpoint_id = u.endpoint_id`);
    if (!claimed) throw Errors.notFound('Webhook delivery');
    if (claimed.delivery_id === null) throw Errors.conflict(`Delivery ${deliveryId} is being sent right now: try again in a moment`);
    await this.delivery.sendNow(claimed, { retry: claimed.event_type !== WEBHOOK_TEST_EVENT });
    return this.getDelivery(orgId, deliveryId);
  }

  private async getDelivery(orgId: string, deliveryId: number): Promise<WebhookDelivery> {
    const [row] = await this.database.query<DeliveryRow>(Prisma.sql`
      SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE organization_id = ${orgId} AND delivery_id = ${deliveryId}::int`);
    if (!row) throw Errors.notFound('Webhook delivery');
    return toDelivery(row);
  }

  /** The endpoint's deliveries, newest first, from the cursor (the last id of the page before) down. */
  async deliveries(orgId: string, id: number, q: WebhookDeliveryQuery): Promise<WebhookDeliveryListReply> {
    await this.get(orgId, id);
    const rows = await this.database.query<DeliveryRow>(Prisma.sql`
      SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
      WHERE organization_id = ${orgId} AND endpoint_id = ${id}::int
        ${q.cursor > 0 ? Prisma.sql`AND delivery_id < ${q.cursor}::int` : Prisma.empty}
        ${q.status ? Prisma.sql`AND status = ${q.status}::"WebhookDeliveryStatus"` : Prisma.empty}
        ${q.event_type ? Prisma.sql`AND event_type = ${q.event_type}` : Prisma.empty}
      ORDER BY delivery_id DESC LIMIT ${q.limit + 1}::int`);
    const page = rows.slice(0, q.limit);
    return { data: page.map(toDelivery), next_cursor: rows.length > q.limit ? page.at(-1)!.id : null };
  }
}

const DELIVERY_COLUMNS = Prisma.sql`delivery_id AS id, endpoint_id, event_id::text AS event_id, event_type, status::text AS status, attempts,
  created_at, next_attempt_at, delivered_at, response_status, response_body, duration_ms, last_error, payload`;

