import { Injectable } from '@nestjs/common';
import {
  audienceText,
  fillPlaceholders,
  MAX_CAMPAIGN_RECIPIENTS,
  MAX_CAMPAIGN_SMS_PARTS,
  NO_AGENT,
  smsParts,
  ZCampaignAudienceSchema,
  type Campaign,
  type CampaignAudience,
  type CampaignCancelReply,
  type CampaignReply,
  type CampaignsReply,
  type CampaignStatus,
  type CampaignTextsReply,
  type CampaignTextStatus,
  type ZCampaignInputSchema,
  type ZCampaignsQuerySchema,
  type ZCampaignTextsQuerySchema,
} from '@kidogo/contracts';
import { normalizePhone } from '@kidogo/mobile-money';
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { SmsProviderService } from '../settings/sms-provider.service.js';
import { phoneCountry } from '../customers/phone-country.js';
import { customerBalances, deviceBalances, standingSql } from '../customers/balances.js';
import { amount } from '../collections/band-sms.service.js';

type CampaignInput = z.output<typeof ZCampaignInputSchema>;
type CampaignsQuery = z.output<typeof ZCampaignsQuerySchema>;
type CampaignTextsQuery = z.output<typeof ZCampaignTextsQuerySchema>;

/** A text's status in the list: being sent is still waiting (the outbox has claimed it). */
const TEXT_STATUSES: Record<CampaignTextStatus, Prisma.Sql> = {
  queued: Prisma.sql`m.delivery_status IN ('queued', 'sending')`,
  sent: Prisma.sql`m.delivery_status = 'sent'`,
  failed: Prisma.sql`m.delivery_status = 'failed'`,
};
const SAMPLE = 3;

interface AudienceRow {
  customer_id: number;
  customer_name: string;
  phone_contact: string | null;
  phone_normalized: string | null;
  opted_out: boolean;
  /** With {balance} or {serials} in the text: what is left to pay over the devices they hold, by currency ({"KES": "4900.00"}), their serials. */
  balances?: Record<string, string> | null;
  serials?: string | null;
}

/**
 * {balance}: what is left to pay, one amount per currency ("KES 4,900.00 + UGX 120,000.00"): devices on plans in two
 * currencies are never added up as one sum. Empty when no device has a price to pay off.
 */
export const balanceText = (balances: Record<string, string> | null | undefined): string =>
  Object.entries(balances ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, value]) => amount(currency, value))
    .join(' + ');

/** The placeholders whose values are read from the customer's devices: asked for only when the text has one. */
const DEVICE_PLACEHOLDERS = /\{(balance|serials)\}/;

interface CampaignRow {
  campaign_id: number;
  text: string;
  audience: unknown;
  audience_text: string;
  send_at: Date;
  created_at: Date;
  created_by: string;
  recipients: number;
  parts: number;
  skipped_no_phone: number;
  skipped_opted_out: number;
  skipped_same_phone: number;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  cancelled_count: number;
  settled: boolean;
  queued: number;
  sent: number;
  failed: number;
}

/** "a_b%" → "a\_b\%": a LIKE pattern matching the text exactly. */
const likeExact = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The customers of an audience (ZCampaignAudienceSchema), the first
 * MAX_CAMPAIGN_RECIPIENTS + 1 by id (one more tells that there are too many).
 * Customers whose personal data was erased are nobody's audience. With a
 * standing, the customers' repayment is summed per customer (customerBalances):
 * through a LATERAL join on a group narrowed by county, product or agent (a
 * probe of each one's devices), in one grouped pass of the organization's
 * devices otherwise.
 */
function audienceSql(orgId: string, a: CampaignAudience, withDevices = false): Prisma.Sql {
  const devices = (product?: string) =>
    Prisma.sql`SELECT 1 FROM items i WHERE i.organization_id = ${orgId} AND i.customer_id = c.customer_id
               ${product ? Prisma.sql`AND lower(i.product_name) = lower(${product})` : Prisma.empty}`;
  const standing = a.standing?.length ? a.standing : null;
  const narrow = Boolean(a.county || a.product_name || a.agent);
  const join = !standing
    ? Prisma.empty
    : narrow
      ? Prisma.sql`JOIN LATERAL ${customerBalances(orgId, Prisma.sql`c.customer_id`)} b ON true`
      : Prisma.sql`JOIN ${customerBalances(orgId)} b ON b.customer_id = c.customer_id`;
  const where: Prisma.Sql[] = [Prisma.sql`c.organization_id = ${orgId}`, Prisma.sql`c.status <> 'erased'`];
  if (a.customers === 'with_device' || a.product_name || standing) where.push(Prisma.sql`EXISTS (${devices(a.product_name)})`);
  if (a.customers === 'without_device') where.push(Prisma.sql`NOT EXISTS (${devices()})`);
  if (a.county) where.push(Prisma.sql`c.county ILIKE ${likeExact(a.county)}`);
  if (a.agent === NO_AGENT) where.push(Prisma.sql`nullif(btrim(c.agent_id), '') IS NULL`);
  else if (a.agent) where.push(Prisma.sql`btrim(c.agent_id) = ${a.agent}`);
  if (standing) where.push(Prisma.sql`${standingSql('b')} = ANY(${standing}::text[])`);
  // {balance} and {serials}: each customer's devices, one probe each (items by customer), for the rows read only.
  const devicesJoin = withDevices
    ? Prisma.sql`LEFT JOIN LATERAL (
        SELECT jsonb_object_agg(d.currency, d.total::numeric(14,2)::text) FILTER (WHERE d.remaining IS NOT NULL) AS balances,
               string_agg(d.serial_number, ', ' ORDER BY d.serial_number) AS serials
        FROM (SELECT d.remaining, d.serial_number, coalesce(nullif(btrim(d.plan_currency), ''), 'KES') AS currency,
                     sum(d.remaining) OVER (PARTITION BY coalesce(nullif(btrim(d.plan_currency), ''), 'KES')) AS total
              FROM ${deviceBalances(orgId, Prisma.sql`c.customer_id`)} d) d) x ON true`
    : Prisma.empty;
  const deviceColumns = withDevices ? Prisma.sql`, x.balances, x.serials` : Prisma.empty;
  return Prisma.sql`
    SELECT c.customer_id, c.customer_name, c.phone_contact, c.phone_normalized, c.sms_opted_out_at IS NOT NULL AS opted_out ${deviceColumns}
    FROM customers c ${join} ${devicesJoin}
    WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY c.customer_id
    LIMIT ${MAX_CAMPAIGN_RECIPIENTS + 1}::int`;
}

const CAMPAIGN_COLUMNS = Prisma.sql`
  s.campaign_id, s.text, s.audience, s.audience_text, s.send_at, s.created_at, s.created_by, s.recipients, s.parts,
  s.skipped_no_phone, s.skipped_opted_out, s.skipped_same_phone, s.cancelled_at, s.cancelled_by, s.cancelled_count,
  s.settled_at IS NOT NULL AS settled, coalesce(d.queued, 0) AS queued, coalesce(s.sent_count, d.sent, 0) AS sent,
  coalesce(s.failed_count, d.failed, 0) AS failed`;

/**
 * A campaign's texts by what became of them, from the messages_by_campaign
 * index; for a settled campaign (every text gone: 0078) the counts kept in
 * its row, and its messages not read at all.
 */
const DELIVERY_JOIN = Prisma.sql`
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE m.delivery_status IN ('queued', 'sending'))::int AS queued,
           count(*) FILTER (WHERE m.delivery_status = 'sent')::int AS sent,
           count(*) FILTER (WHERE m.delivery_status = 'failed')::int AS failed
    FROM messages m WHERE s.settled_at IS NULL AND m.organization_id = s.organization_id AND m.campaign_id = s.campaign_id) d ON true`;

function statusOf(r: CampaignRow, now: number): CampaignStatus {
  if (r.cancelled_at) return 'cancelled';
  if (r.queued > 0) return r.send_at.getTime() > now ? 'scheduled' : 'sending';
  return 'sent';
}

function toCampaign(r: CampaignRow, now = Date.now()): Campaign {
  const audience = ZCampaignAudienceSchema.safeParse(r.audience);
  return {
    campaign_id: r.campaign_id,
    text: r.text,
    audience: audience.success ? audience.data : { customers: 'with_device' },
    audience_text: r.audience_text,
    send_at: r.send_at.toISOString(),
    created_at: r.created_at.toISOString(),
    created_by: r.created_by,
    recipients: r.recipients,
    parts: r.parts,
    skipped_no_phone: r.skipped_no_phone,
    skipped_opted_out: r.skipped_opted_out,
    skipped_same_phone: r.skipped_same_phone,
    status: statusOf(r, now),
    delivery: { queued: r.queued, sent: r.sent, failed: r.failed, cancelled: r.cancelled_count },
    cancelled_at: r.cancelled_at?.toISOString() ?? null,
    cancelled_by: r.cancelled_by,
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * Bulk SMS (README "Bulk SMS"): one text to a group of the organization's
 * customers, filled in with each one's name, now or at a time set ahead.
 * One text per phone number; a customer who texted STOP, or has no phone
 * number, is passed over and counted. The texts are queued messages naming
 * the campaign, with next_attempt_at at its send_at: the outbox sends them
 * when that comes, after the payment replies due (whose next_attempt_at is
 * null), so a big campaign never holds up a customer's code. Cancelling
 * takes the texts not yet sent off the queue.
 */
@Injectable()
export class SmsCampaignsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly sms: SmsProviderService,
  ) {}

  async send(orgId: string, user: AuthUser, input: CampaignInput): Promise<CampaignReply> {
    const audience = input.audience;
    const group = audienceText(audience);
    if (!input.dry_run && !(await this.sms.routeFor(orgId))) {
      throw Errors.conflict('No SMS provider is set up to send it: an owner or admin sets one in Settings → SMS Provider');
    }
    const rows = await this.database.query<AudienceRow>(audienceSql(orgId, audience, DEVICE_PLACEHOLDERS.test(input.text)));
    if (rows.length > MAX_CAMPAIGN_RECIPIENTS) {
      throw Errors.conflict(
        `More than ${MAX_CAMPAIGN_RECIPIENTS.toLocaleString('en')} customers are in this group: text a narrower one ` +
          '(by county, product, repayment standing or sales agent) at a time',
      );
    }
    const country = await phoneCountry(this.database.query, orgId);
    const texts: { customer_id: number; customer_name: string; recipient_number: string; text: string; parts: number }[] = [];
    const phones = new Set<string>();
    let noPhone = 0;
    let optedOut = 0;
    let samePhone = 0;
    for (const c of rows) {
      // A customer who texted STOP gets nothing they did not ask for (README "Texts a customer can stop").
      if (c.opted_out) {
        optedOut++;
        continue;
      }
      const phone = c.phone_normalized ?? (c.phone_contact ? normalizePhone(c.phone_contact, country) : null);
      if (!phone) {
        noPhone++;
        continue;
      }
      // A family sharing a phone gets the text once.
      if (phones.has(phone)) {
        samePhone++;
        continue;
      }
      phones.add(phone);
      const name = c.customer_name.trim();
      const text = fillPlaceholders(input.text, {
        name: name.split(/\s+/)[0] ?? '',
        full_name: name,
        balance: balanceText(c.balances),
        serials: c.serials ?? '',
      });
      const { parts } = smsParts(text);
      if (parts > MAX_CAMPAIGN_SMS_PARTS) {
        throw Errors.badRequest(
          'text',
          `filled in for ${name} it is ${parts} SMS: it must fit in ${MAX_CAMPAIGN_SMS_PARTS} for every customer`,
        );
      }
      texts.push({ customer_id: c.customer_id, customer_name: name, recipient_number: phone, text, parts });
    }
    const parts = texts.reduce((n, t) => n + t.parts, 0);
    const base = {
      dry_run: input.dry_run,
      audience_text: group,
      recipients: texts.length,
      skipped_no_phone: noPhone,
      skipped_opted_out: optedOut,
      skipped_same_phone: samePhone,
      parts,
      sample: texts.slice(0, SAMPLE),
    };
    const what = `${count(texts.length, 'SMS', 'SMS')}${parts > texts.length ? ` (${count(parts, 'part')})` : ''} to ${group}`;
    if (input.dry_run) {
      return {
        ...base,
        campaign: null,
        message: texts.length ? `Would send ${what}` : `Nothing to send: no customer of ${group} has a phone number and takes texts`,
      };
    }
    if (!texts.length) {
      throw Errors.badRequest('audience', `no customer of ${group} has a phone number and takes texts`);
    }
    const description = `Bulk SMS to ${count(texts.length, 'customer')} (${group}) by ${user.username}${input.send_at ? `, to go at ${input.send_at}` : ''}: ${input.text}`;
    const [made] = await this.database.query<{ campaign_id: number }>(Prisma.sql`
      WITH c AS (
        INSERT INTO sms_campaigns (organization_id, text, audience, audience_text, send_at, created_by, recipients, parts,
                                   skipped_no_phone, skipped_opted_out, skipped_same_phone)
        VALUES (${orgId}, ${input.text}, ${JSON.stringify(audience)}::jsonb, ${group.slice(0, 500)},
                coalesce(${input.send_at ?? null}::timestamptz, now()), ${user.username}, ${texts.length}::int, ${parts}::int,
                ${noPhone}::int, ${optedOut}::int, ${samePhone}::int)
        RETURNING campaign_id, send_at
      ), m AS (
        INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, status, sent_by, campaign_id, next_attempt_at)
        SELECT ${orgId}, t.text, t.phone, 'queued'::"DeliveryStatus", 'processed'::"MessageStatus", ${user.username}, c.campaign_id, c.send_at
        FROM c, unnest(${texts.map((t) => t.text)}::text[], ${texts.map((t) => t.recipient_number)}::text[]) AS t(text, phone)
        RETURNING 1
      ), a AS (
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'sms_campaign.sent', 'sms_campaign', c.campaign_id::text,
               ${description.slice(0, 1000)},
               jsonb_build_object('campaign_id', c.campaign_id, 'audience', ${JSON.stringify(audience)}::jsonb, 'text', ${input.text}::text,
                                  'send_at', c.send_at, 'recipients', ${texts.length}::int, 'parts', ${parts}::int,
                                  'skipped_no_phone', ${noPhone}::int, 'skipped_opted_out', ${optedOut}::int,
                                  'skipped_same_phone', ${samePhone}::int)
        FROM c RETURNING 1
      )
      SELECT campaign_id FROM c`);
    const campaign = await this.get(orgId, made!.campaign_id);
    const when = input.send_at ? ` to go at ${campaign.send_at}` : ' queued';
    return { ...base, campaign, message: `${what}${when}` };
  }

  async list(orgId: string, q: CampaignsQuery): Promise<CampaignsReply> {
    const [rows, [total]] = await Promise.all([
      this.database.query<CampaignRow>(Prisma.sql`
        SELECT ${CAMPAIGN_COLUMNS} FROM sms_campaigns s ${DELIVERY_JOIN}
        WHERE s.organization_id = ${orgId}
        ORDER BY s.created_at DESC, s.campaign_id DESC
        LIMIT ${q.limit}::int OFFSET ${(q.page - 1) * q.limit}::int`),
      this.database.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM sms_campaigns WHERE organization_id = ${orgId}`),
    ]);
    const now = Date.now();
    const n = total?.n ?? 0;
    await this.settle(orgId, rows);
    return {
      data: rows.map((r) => toCampaign(r, now)),
      pagination: { total: n, total_pages: Math.ceil(n / q.limit), page: q.page, limit: q.limit },
    };
  }

  async get(orgId: string, campaignId: number): Promise<Campaign> {
    const [row] = await this.database.query<CampaignRow>(Prisma.sql`
      SELECT ${CAMPAIGN_COLUMNS} FROM sms_campaigns s ${DELIVERY_JOIN}
      WHERE s.organization_id = ${orgId} AND s.campaign_id = ${campaignId}::int`);
    if (!row) throw Errors.notFound('Bulk SMS');
    await this.settle(orgId, [row]);
    return toCampaign(row);
  }

  /**
   * A campaign's texts in the order they were queued, each with the customer
   * its phone number is now (the first registered of those sharing it), what
   * became of it and why not sent. The total is the campaign's count of that
   * status (a campaign's texts are at most 100,000, read from its index).
   */
  async texts(orgId: string, campaignId: number, q: CampaignTextsQuery): Promise<CampaignTextsReply> {
    const [found] = await this.database.query<{ n: number }>(Prisma.sql`
      SELECT (SELECT count(*)::int FROM messages m WHERE m.organization_id = s.organization_id AND m.campaign_id = s.campaign_id
                ${q.status ? Prisma.sql`AND ${TEXT_STATUSES[q.status]}` : Prisma.empty}) AS n
      FROM sms_campaigns s WHERE s.organization_id = ${orgId} AND s.campaign_id = ${campaignId}::int`);
    if (!found) throw Errors.notFound('Bulk SMS');
    const rows = await this.database.query<{
      message_id: number;
      recipient_number: string | null;
      customer_id: number | null;
      customer_name: string | null;
      text: string | null;
      delivery_status: string;
      attempts: number;
      error: string | null;
      sent_at: Date | null;
    }>(Prisma.sql`
      SELECT m.message_id, m.recipient_number, c.customer_id, c.customer_name, m.forwarded_message AS text, m.delivery_status::text,
             m.delivery_attempts AS attempts, CASE WHEN m.delivery_status <> 'sent' THEN m.last_delivery_error END AS error, m.sent_at
      FROM messages m
      LEFT JOIN LATERAL (
        SELECT customer_id, customer_name FROM customers
        WHERE organization_id = m.organization_id AND phone_normalized = m.recipient_number
        ORDER BY customer_id LIMIT 1) c ON m.recipient_number IS NOT NULL
      WHERE m.organization_id = ${orgId} AND m.campaign_id = ${campaignId}::int
        ${q.status ? Prisma.sql`AND ${TEXT_STATUSES[q.status]}` : Prisma.empty}
      ORDER BY m.message_id
      LIMIT ${q.limit}::int OFFSET ${(q.page - 1) * q.limit}::int`);
    const status = (d: string): CampaignTextStatus => (d === 'sent' ? 'sent' : d === 'failed' ? 'failed' : 'queued');
    return {
      data: rows.map((r) => ({
        message_id: r.message_id,
        recipient_number: r.recipient_number,
        customer_id: r.customer_id,
        customer_name: r.customer_name,
        text: r.text,
        status: status(r.delivery_status),
        attempts: r.attempts,
        error: r.error,
        sent_at: r.sent_at?.toISOString() ?? null,
      })),
      pagination: { total: found.n, total_pages: Math.ceil(found.n / q.limit), page: q.page, limit: q.limit },
    };
  }

  /**
   * Keeps the counts of the campaigns read whose every text has gone (none
   * queued or being sent): sent and failed are final, so later reads take
   * them from the campaign's row instead of counting its messages again.
   */
  private async settle(orgId: string, rows: CampaignRow[]): Promise<void> {
    const done = rows.filter((r) => !r.settled && r.queued === 0);
    if (!done.length) return;
    await this.database.execute(Prisma.sql`
      UPDATE sms_campaigns s SET sent_count = d.sent, failed_count = d.failed, settled_at = now()
      FROM unnest(${done.map((r) => r.campaign_id)}::int[], ${done.map((r) => r.sent)}::int[], ${done.map((r) => r.failed)}::int[]) AS d(id, sent, failed)
      WHERE s.organization_id = ${orgId} AND s.campaign_id = d.id AND s.settled_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.organization_id = s.organization_id AND m.campaign_id = s.campaign_id
                          AND m.delivery_status IN ('queued', 'sending'))`);
  }

  /**
   * Stops a campaign: its texts not sent yet are taken off the queue (one
   * tried and waiting to be tried again is marked failed, with who cancelled
   * it); a text the outbox is sending at that moment still goes.
   */
  async cancel(orgId: string, user: AuthUser, campaignId: number): Promise<CampaignCancelReply> {
    const cancelled = await this.database.transaction(async (run) => {
      const [c] = await run<{ cancelled_at: Date | null; audience_text: string; queued: number }>(Prisma.sql`
        SELECT s.cancelled_at, s.audience_text,
               (SELECT count(*)::int FROM messages m WHERE m.organization_id = s.organization_id AND m.campaign_id = s.campaign_id
                  AND m.delivery_status = 'queued') AS queued
        FROM sms_campaigns s WHERE s.organization_id = ${orgId} AND s.campaign_id = ${campaignId}::int FOR UPDATE`);
      if (!c) throw Errors.notFound('Bulk SMS');
      if (c.cancelled_at) throw Errors.conflict('This bulk SMS was cancelled already');
      if (c.queued === 0) throw Errors.conflict('Every text of this bulk SMS has gone out already: there is nothing left to cancel');
      const [done] = await run<{ removed: number; failed: number }>(Prisma.sql`
        WITH removed AS (
          DELETE FROM messages WHERE organization_id = ${orgId} AND campaign_id = ${campaignId}::int
            AND delivery_status = 'queued' AND delivery_attempts = 0
          RETURNING 1
        ), failed AS (
          UPDATE messages SET delivery_status = 'failed', next_attempt_at = NULL,
                 last_delivery_error = ${`Cancelled by ${user.username} before it was tried again`}
          WHERE organization_id = ${orgId} AND campaign_id = ${campaignId}::int AND delivery_status = 'queued' AND delivery_attempts > 0
          RETURNING 1
        )
        SELECT (SELECT count(*)::int FROM removed) AS removed, (SELECT count(*)::int FROM failed) AS failed`);
      const removed = done!.removed;
      await run(Prisma.sql`
        WITH s AS (
          UPDATE sms_campaigns SET cancelled_at = now(), cancelled_by = ${user.username}, cancelled_count = ${removed}::int
          WHERE organization_id = ${orgId} AND campaign_id = ${campaignId}::int RETURNING campaign_id
        )
        INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
        SELECT ${orgId}, ${user.user_id}::int, ${user.username}, 'sms_campaign.cancelled', 'sms_campaign', s.campaign_id::text,
               ${`Bulk SMS ${campaignId} (${c.audience_text}) cancelled by ${user.username}: ${count(removed + done!.failed, 'text')} not sent`.slice(0, 1000)},
               jsonb_build_object('campaign_id', s.campaign_id, 'cancelled', ${removed}::int, 'failed', ${done!.failed}::int)
        FROM s`);
      return removed + done!.failed;
    });
    const campaign = await this.get(orgId, campaignId);
    return { message: `Bulk SMS cancelled: ${count(cancelled, 'text')} not sent`, cancelled, campaign };
  }
}
