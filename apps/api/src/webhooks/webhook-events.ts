import { randomUUID } from 'node:crypto';
import type { WebhookEventBody, WebhookEventType } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';

/** The body an endpoint receives for one event (the same for every endpoint it goes to). */
export function webhookEvent(orgId: string, type: string, data: Record<string, unknown>): WebhookEventBody {
  return { id: randomUUID(), type, created_at: new Date().toISOString(), organization_id: orgId, data };
}

/**
 * `INSERT INTO webhook_deliveries ... SELECT` one delivery of the event for
 * each of the organization's active endpoints subscribed to it, for a
 * data-modifying CTE of the statement that makes the event, so the event goes
 * out if and only if the change commits. Written only when `guard` (a CTE
 * name, e.g. the payment just written) returned a row. With no endpoint it
 * writes nothing: one probe of webhook_endpoints by the organization's key.
 */
export function webhookEventSql(orgId: string, type: WebhookEventType, data: Record<string, unknown>, guard: string | null = null): Prisma.Sql {
  const event = webhookEvent(orgId, type, data);
  return Prisma.sql`INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id, event_type, payload)
    SELECT e.organization_id, e.endpoint_id, ${event.id}::uuid, ${type}::varchar, ${JSON.stringify(event)}::json
    FROM webhook_endpoints e
    WHERE e.organization_id = ${orgId} AND e.is_active AND ${type}::varchar = ANY(e.events)
      ${guard ? Prisma.raw(`AND EXISTS (SELECT 1 FROM ${guard})`) : Prisma.empty}`;
}

/** Many events of one type in one statement (a CSV import's batch): each event once per subscribed endpoint. */
export function webhookEventsSql(orgId: string, type: WebhookEventType, data: Record<string, unknown>[]): Prisma.Sql {
  const events = data.map((d) => webhookEvent(orgId, type, d));
  return Prisma.sql`INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id, event_type, payload)
    SELECT e.organization_id, e.endpoint_id, v.id, ${type}::varchar, v.payload
    FROM webhook_endpoints e, unnest(${events.map((ev) => ev.id)}::uuid[], ${events.map((ev) => JSON.stringify(ev))}::json[]) AS v(id, payload)
    WHERE e.organization_id = ${orgId} AND e.is_active AND ${type}::varchar = ANY(e.events)`;
}

/** Whether any active endpoint of the organization is sent `type`: a bulk write skips building events nobody is sent. */
export function webhookSubscribedSql(orgId: string, type: WebhookEventType): Prisma.Sql {
  return Prisma.sql`SELECT EXISTS (SELECT 1 FROM webhook_endpoints e
    WHERE e.organization_id = ${orgId} AND e.is_active AND ${type}::varchar = ANY(e.events)) AS subscribed`;
}
