import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  PAYMENT_REQUEST_PROVIDER_LABELS,
  PORTAL_LINK_DAYS,
  PORTAL_LIST_MAX,
  PORTAL_PATH,
  type PortalLinkCreated,
  type PortalLinkReply,
  type PortalLinkState,
  type PortalPayment,
  type PortalPaymentReply,
  type PortalView,
  type PaymentRequest,
  type ZPortalPayInputSchema,
} from '@kidogo/contracts';
import type { z } from 'zod';
import { groupToken, replyLanguage } from '@kidogo/mobile-money';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Calendar } from '../common/calendar.js';
import { Errors } from '../common/errors.js';
import { randomToken, sha256 } from '../common/crypto.js';
import type { AuthUser } from '../common/tenancy.js';
import { deviceBalances } from '../customers/balances.js';
import { PaymentRequestsService } from '../mpesa-express/payment-requests.service.js';

interface LinkRow {
  created_at: Date;
  created_by: string;
  expires_at: Date;
  last_viewed_at: Date | null;
  views: number;
}

const toState = (r: LinkRow): PortalLinkState => ({
  created_at: r.created_at.toISOString(),
  created_by: r.created_by,
  expires_at: r.expires_at.toISOString(),
  expired: r.expires_at.getTime() <= Date.now(),
  last_viewed_at: r.last_viewed_at?.toISOString() ?? null,
  views: r.views,
});

/** What a page answers for a link that does not work: the same whatever the reason, so a guess learns nothing. */
export const PORTAL_NOT_FOUND = 'This page is not available: the link may have expired. Ask for a new one.';

/**
 * The customer's own page (README "The customer's page"): staff make a link
 * for a customer (one a customer; a new one replaces the last), the customer
 * opens it without signing in and sees their devices, what is left to pay,
 * their last payments and their last codes. The link's token is kept as its
 * sha256 only; it stops after PORTAL_LINK_DAYS, when staff revoke it, when the
 * customer's personal data is erased, or while the organization is suspended.
 */
@Injectable()
export class PortalService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly calendar: Calendar,
    private readonly requests: PaymentRequestsService,
  ) {}

  private async customer(run: Run, orgId: string, customerId: number): Promise<{ customer_name: string; erased: boolean }> {
    const [c] = await run<{ customer_name: string; erased: boolean }>(Prisma.sql`
      SELECT customer_name, status = 'erased' AS erased FROM customers
      WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int FOR UPDATE`);
    if (!c) throw Errors.notFound('Customer');
    return c;
  }

  async state(orgId: string, customerId: number): Promise<PortalLinkReply> {
    const [exists] = await this.database.query<{ n: number }>(
      Prisma.sql`SELECT 1 AS n FROM customers WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int`,
    );
    if (!exists) throw Errors.notFound('Customer');
    const [row] = await this.database.query<LinkRow>(Prisma.sql`
      SELECT created_at, created_by, expires_at, last_viewed_at, views FROM customer_portal_links
      WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int`);
    return { link: row ? toState(row) : null };
  }

  async create(orgId: string, user: AuthUser, customerId: number): Promise<PortalLinkCreated> {
    const token = randomToken(32);
    const row = await this.database.transaction(async (run) => {
      const c = await this.customer(run, orgId, customerId);
      if (c.erased) throw Errors.conflict("This customer's personal data was erased: there is nothing to show them");
      const [link] = await run<LinkRow>(Prisma.sql`
        INSERT INTO customer_portal_links (organization_id, customer_id, token_hash, created_by, expires_at)
        VALUES (${orgId}, ${customerId}::int, ${sha256(token)}, ${user.username}, now() + make_interval(days => ${PORTAL_LINK_DAYS}))
        ON CONFLICT (organization_id, customer_id) DO UPDATE SET
          token_hash = EXCLUDED.token_hash, created_by = EXCLUDED.created_by, created_at = now(), expires_at = EXCLUDED.expires_at,
          last_viewed_at = NULL, views = 0
        RETURNING created_at, created_by, expires_at, last_viewed_at, views`);
      await this.audit(run, orgId, user, customerId, 'customer.portal_link_created', `${user.username} made a link to ${c.customer_name}'s own page, working for ${PORTAL_LINK_DAYS} days`);
      return link!;
    });
    const url = this.config.publicUrl ? `${this.config.publicUrl}${PORTAL_PATH}/${token}` : null;
    return {
      message: `Link made: it works for ${PORTAL_LINK_DAYS} days, and the customer's earlier link no longer does`,
      token,
      url,
      link: toState(row),
    };
  }

  async revoke(orgId: string, user: AuthUser, customerId: number): Promise<{ message: string }> {
    return this.database.transaction(async (run) => {
      const c = await this.customer(run, orgId, customerId);
      const gone = await run<{ n: number }>(Prisma.sql`
        DELETE FROM customer_portal_links WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int RETURNING 1 AS n`);
      if (!gone.length) throw Errors.notFound('Link');
      await this.audit(run, orgId, user, customerId, 'customer.portal_link_revoked', `${user.username} stopped the link to ${c.customer_name}'s own page`);
      return { message: 'Link stopped: it no longer opens the page' };
    });
  }

  /**
   * The page, by its link's token. A token of no link, an expired link, and a
   * suspended or disabled organization all answer the same 404. Each opening
   * is counted on the link (how often, and when last), for staff.
   */
  async view(token: string): Promise<PortalView> {
    const link = await this.open(token);
    const org = link.organization_id;
    const id = link.customer_id;
    const [head, devices, payments, codes] = await Promise.all([
      this.database.query<{ organization_name: string | null; paybill: string | null; customer_name: string; phone_contact: string | null; reply_language: string }>(Prisma.sql`
        SELECT o.name AS organization_name, o.agreement_paybill AS paybill, c.customer_name, c.phone_contact, o.reply_language
        FROM customers c JOIN organizations o ON o.organization_id = c.organization_id
        WHERE c.organization_id = ${org} AND c.customer_id = ${id}::int`),
      this.database.query<{
        serial_number: string;
        product_name: string;
        credit_until: Date | null;
        paid_off_at: Date | null;
        total_paid: Prisma.Decimal;
        remaining: Prisma.Decimal | null;
        plan_daily_price: Prisma.Decimal | null;
        plan_currency: string | null;
      }>(Prisma.sql`
        SELECT d.serial_number, d.product_name, d.credit_until, d.paid_off_at, d.total_paid, d.remaining, d.plan_daily_price, d.plan_currency
        FROM ${deviceBalances(org, Prisma.sql`${id}::int`)} d
        ORDER BY d.assigned_at ASC NULLS LAST, d.item_id ASC`),
      this.database.query<{ paid_at: Date; serial_number: string | null; amount: Prisma.Decimal; currency: string; transaction_code: string | null; days_bought: number }>(Prisma.sql`
        SELECT p.paid_at, i.serial_number, p.amount, p.currency, p.transaction_code, p.days_bought
        FROM payments p LEFT JOIN items i ON i.organization_id = p.organization_id AND i.item_id = p.item_id
        WHERE p.organization_id = ${org} AND p.customer_id = ${id}::int AND p.status IN ('completed', 'success')
        ORDER BY p.paid_at DESC, p.payment_id DESC LIMIT ${PORTAL_LIST_MAX}::int`),
      this.database.query<{ created_at: Date; serial_number: string; token_value: string; token_type: string; days_generated: Prisma.Decimal }>(Prisma.sql`
        SELECT t.created_at, t.serial_number, t.token_value, t.token_type::text AS token_type, t.days_generated
        FROM token_logs t
        WHERE t.organization_id = ${org} AND t.customer_id = ${id}::int AND t.is_valid
          AND t.item_id IN (SELECT item_id FROM items WHERE organization_id = ${org} AND customer_id = ${id}::int)
        ORDER BY t.created_at DESC, t.token_log_id DESC LIMIT ${PORTAL_LIST_MAX}::int`),
    ]);
    const h = head[0];
    if (!h) throw gone();
    const phone = h.phone_contact?.replace(/\D/g, '') || null;
    const payWith = await this.requests.payWith(org, h.phone_contact);
    const now = Date.now();
    const today = this.calendar.today(now);
    return {
      organization_name: h.organization_name ?? org,
      language: replyLanguage(h.reply_language),
      paybill: h.paybill,
      first_name: h.customer_name.trim().split(/\s+/)[0] ?? '',
      devices: devices.map((d) => {
        const ends = d.credit_until ? this.calendar.dayOf(d.credit_until) : null;
        const on = d.credit_until !== null && d.credit_until.getTime() > now;
        return {
          serial_number: d.serial_number,
          product_name: d.product_name,
          state: d.paid_off_at ? 'paid_off' : on ? 'on' : 'off',
          credit_until: d.credit_until?.toISOString() ?? null,
          days_left: ends === null ? null : on ? ends - today : Math.min(-1, ends - today),
          total_paid: d.total_paid.toFixed(2),
          remaining: d.remaining === null ? null : d.remaining.toFixed(2),
          currency: d.plan_currency ?? 'KES',
          daily_price: d.plan_daily_price === null ? null : d.plan_daily_price.toFixed(2),
        };
      }),
      payments: payments.map((p) => ({
        paid_at: p.paid_at.toISOString(),
        serial_number: p.serial_number ?? '',
        amount: p.amount.toFixed(2),
        currency: p.currency,
        receipt: p.transaction_code,
        days: p.days_bought,
      })),
      codes: codes.map((c) => ({
        created_at: c.created_at.toISOString(),
        serial_number: c.serial_number,
        token: groupToken(c.token_value),
        token_type: c.token_type,
        days: Number(c.days_generated),
      })),
      as_of: new Date(now).toISOString(),
      link_expires_at: link.expires_at.toISOString(),
      pay_with: payWith,
      phone_hint: phone && phone.length >= 6 ? `••• ${phone.slice(-3)}` : null,
    };
  }

  /**
   * Pay Now: the customer asks their own phone to pay for one of their devices (an Ask to Pay request sent by nobody,
   * to the phone on file). Not counted as an opening of the page.
   */
  async pay(token: string, input: z.output<typeof ZPortalPayInputSchema>): Promise<PortalPaymentReply> {
    const link = await this.open(token, false);
    const { data } = await this.requests.create(link.organization_id, { ...input, phone_number: undefined }, null, link.customer_id);
    return { data: toPortalPayment(data) };
  }

  /** A payment the customer asked for, as their page follows it; any of their own Ask to Pay requests, no one else's. */
  async payment(token: string, requestId: number): Promise<PortalPaymentReply> {
    const link = await this.open(token, false);
    const { data } = await this.requests.get(link.organization_id, requestId);
    if (data.customer_id !== link.customer_id) throw Errors.notFound('Payment');
    return { data: toPortalPayment(data) };
  }

  /**
   * The link of a token that opens a page (not expired, its organization
   * active), counted as opened; else the one 404.
   */
  async open(token: string, counted = true): Promise<{ organization_id: string; customer_id: number; expires_at: Date }> {
    const [link] = await this.database.query<{ organization_id: string; customer_id: number; expires_at: Date }>(Prisma.sql`
      UPDATE customer_portal_links l SET last_viewed_at = CASE WHEN ${counted} THEN now() ELSE l.last_viewed_at END,
             views = l.views + CASE WHEN ${counted} THEN 1 ELSE 0 END
      FROM organizations o
      WHERE l.token_hash = ${sha256(token)} AND l.expires_at > now()
        AND o.organization_id = l.organization_id AND o.status = 'active'
      RETURNING l.organization_id, l.customer_id, l.expires_at`);
    if (!link) throw gone();
    return link;
  }

  private async audit(run: Run, orgId: string, user: AuthUser, customerId: number, action: string, description: string): Promise<void> {
    await run(Prisma.sql`
      INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description)
      VALUES (${orgId}, ${user.user_id}::int, ${user.username}, ${action}, 'customer', ${String(customerId)}, ${description})`);
  }
}

/** What the customer's page shows of an Ask to Pay request: nothing of staff's (who sent it, the provider's codes). */
function toPortalPayment(r: PaymentRequest): PortalPayment {
  return {
    request_id: r.request_id,
    serial_number: r.serial_number,
    provider: r.provider,
    label: PAYMENT_REQUEST_PROVIDER_LABELS[r.provider],
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    days: r.days,
    token: r.token ? groupToken(r.token) : null,
    created_at: r.created_at,
  };
}

/** The one answer for a link that does not open a page. */
const gone = () => new NotFoundException({ detail: PORTAL_NOT_FOUND, message: PORTAL_NOT_FOUND });
