import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { DeviceDiscount, DeviceDiscountList, DiscountVoidReply, ItemDiscountReply, ZItemDiscountSchema } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { money } from '../metrics/period.js';
import { amount as amountText } from '../collections/band-sms.service.js';
import { TokensService, tokenIssuedData } from '../tokens/tokens.service.js';
import { lockedPayoff, serialWhere, tokenColumnsSql, tokenInsertsSql } from '../tokens/token-device.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';

type DiscountInput = z.output<typeof ZItemDiscountSchema>;

/** An amount as the reply's message says it: "KES 1,000.00". */
const said = (currency: string, value: Prisma.Decimal) => amountText(currency, value.toFixed(2));

interface DiscountRow {
  discount_id: number;
  serial_number: string;
  customer_id: number;
  customer_name: string;
  amount: Prisma.Decimal;
  currency: string;
  reason: string;
  remaining_before: Prisma.Decimal;
  remaining_after: Prisma.Decimal;
  unlock_token_count: number | null;
  given_by: string | null;
  given_at: Date;
  voided_at: Date | null;
  voided_by: string | null;
  void_reason: string | null;
}

const toDiscount = (r: DiscountRow): DeviceDiscount => ({
  discount_id: r.discount_id,
  serial_number: r.serial_number,
  customer_id: r.customer_id,
  customer_name: r.customer_name,
  amount: money(r.amount),
  currency: r.currency,
  reason: r.reason,
  remaining_before: money(r.remaining_before),
  remaining_after: money(r.remaining_after),
  unlock_token_count: r.unlock_token_count,
  given_by: r.given_by,
  given_at: r.given_at.toISOString(),
  voided_at: r.voided_at?.toISOString() ?? null,
  voided_by: r.voided_by,
  void_reason: r.void_reason,
});

/** A discount row's columns as DiscountRow reads them, for the discount `d` of the device `i` and its customer `c`. */
const DISCOUNT_COLUMNS = Prisma.sql`
  d.discount_id, i.serial_number, d.customer_id, c.customer_name, d.amount, d.currency, d.reason, d.remaining_before,
  d.remaining_after, d.unlock_token_count, d.given_by, d.given_at, d.voided_at, d.voided_by, d.void_reason`;

/** The organization's discounts `where` says, as DiscountRow reads them (with the device's serial and the customer's name), then `tail`. */
const discountsSql = (orgId: string, where: Prisma.Sql, tail: Prisma.Sql) => Prisma.sql`
  SELECT ${DISCOUNT_COLUMNS}
  FROM device_discounts d
  JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
  JOIN customers c ON c.organization_id = d.organization_id AND c.customer_id = d.customer_id
  WHERE d.organization_id = ${orgId} AND ${where}
  ${tail}`;

/** The swaps an account is followed through (a device replaced again and again); more is not a real account. */
const MAX_SWAPS_FOLLOWED = 20;

/** A list's order and bound: the newest 500. */
const NEWEST_500 = Prisma.sql`ORDER BY d.given_at DESC, d.discount_id DESC LIMIT 500`;

/**
 * Discounts off what is left to pay on a device (README "Discounts"): the
 * price of paying off early, goodwill after a long fault, a price set wrong.
 * A discount lowers the device's payoff price on its present account
 * (items.discount), so every figure that reads it (what is left to pay, the
 * repayment standing, Collections, the statement, the customer's page, BAL)
 * and the payment rules (the payment that reaches the lower price unlocks the
 * device) follow at once. One of all that is left pays the device off on the
 * spot, with the code that unlocks it for good.
 *
 * One transaction on the locked device: the discount row, the device, the
 * unlock code's log when there is one, the audit entry (item.discounted) and
 * the webhook events.
 */
@Injectable()
export class DiscountService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: TokensService,
  ) {}

  give(orgId: string, user: AuthUser, input: DiscountInput): Promise<ItemDiscountReply> {
    return this.database.transaction(async (run) => {
      const item = await this.tokens.lockBySerial(run, orgId, input.item_serial_number);
      const serial = item.serial_number;
      if (item.customer_id === null) throw Errors.conflict(`Device ${serial} is not assigned to a customer: there is nothing left to pay on it`);
      if (item.paid_off_at) throw Errors.conflict(`Device ${serial} is paid off: there is nothing left to pay on it`);
      const payoff = lockedPayoff(item);
      if (payoff === null) {
        throw Errors.conflict(`Device ${serial} has no price to pay off (its plan has no free-code price and the device no price): there is nothing to take a discount off`);
      }
      const before = Prisma.Decimal.max(payoff.minus(item.total_paid), 0);
      if (before.isZero()) throw Errors.conflict(`Device ${serial} has nothing left to pay`);
      const amount = new Prisma.Decimal(input.amount.toFixed(2));
      if (amount.greaterThan(before)) {
        throw Errors.badRequest('amount', `must be at most ${before.toFixed(2)}, what is left to pay on ${serial}`);
      }
      const after = before.minus(amount);
      const currency = item.tpl_currency ?? 'KES';
      const customerId = item.customer_id;
      const customerName = item.customer_name ?? `customer ${customerId}`;
      // All that was left: the device is paid off, with the code that unlocks it for good (as a payment reaching its price would).
      const [unlock] = after.isZero() ? this.tokens.plan(item, [{ type: 'unlock' }], 'amount') : [];
      const writes = unlock ? tokenInsertsSql({ orgId, item, generatedBy: user.username, actor: user, paymentId: null }, [unlock], null) : null;
      const details = {
        serial_number: serial,
        item_id: item.item_id,
        customer_id: customerId,
        customer_name: customerName,
        amount: amount.toFixed(2),
        currency,
        reason: input.reason,
        remaining_before: before.toFixed(2),
        remaining_after: after.toFixed(2),
        payoff: payoff.minus(amount).toFixed(2),
        paid_off: unlock !== undefined,
        unlock_token: unlock ? { token: unlock.token, token_count: unlock.count } : null,
        given_by: user.username,
      };
      const description =
        `${currency} ${amount.toFixed(2)} taken off what ${customerName} has left to pay on ${serial} by ${user.username} ` +
        `(${before.toFixed(2)} left before, ${after.toFixed(2)} now${unlock ? `: paid off, unlocked with token count ${unlock.count}` : ''}): ${input.reason}`;
      const discounted = webhookEventSql(orgId, 'device.discounted', details);
      const issued = unlock ? webhookEventSql(orgId, 'token.issued', tokenIssuedData(item, unlock, user.username)) : null;
      const [row] = await run<DiscountRow>(Prisma.sql`
        WITH ${writes ? Prisma.sql`tl AS (${writes.logs} RETURNING 1), al AS (${writes.audits} RETURNING 1), ex AS (${writes.expire} RETURNING 1),` : Prisma.empty}
        ${issued ? Prisma.sql`wt AS (${issued} RETURNING 1),` : Prisma.empty}
        wd AS (${discounted} RETURNING 1),
        d AS (
          UPDATE items SET discount = discount + ${amount.toFixed(2)}::numeric ${unlock ? Prisma.sql`, ${tokenColumnsSql(item)}` : Prisma.empty}, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int RETURNING 1
        ), au AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'item.discounted', 'item', ${serial}, ${description.slice(0, 1000)},
                  ${JSON.stringify({ ...details, unlock_token: undefined, unlock_token_count: unlock?.count ?? null })}::jsonb)
          RETURNING 1
        )
        INSERT INTO device_discounts (organization_id, item_id, customer_id, amount, currency, reason, remaining_before, remaining_after,
                                      unlock_token_count, given_by)
        VALUES (${orgId}, ${item.item_id}::int, ${customerId}::int, ${amount.toFixed(2)}::numeric, ${currency}, ${input.reason},
                ${before.toFixed(2)}::numeric, ${after.toFixed(2)}::numeric, ${unlock?.count ?? null}::int, ${user.username})
        RETURNING discount_id, ${serial} AS serial_number, customer_id, ${customerName} AS customer_name, amount, currency, reason,
                  remaining_before, remaining_after, unlock_token_count, given_by, given_at, voided_at, voided_by, void_reason`);
      return {
        message: unlock
          ? `${said(currency, amount)} taken off ${serial}: it is paid off; enter the unlock code on the device`
          : `${said(currency, amount)} taken off ${serial}: ${said(currency, after)} left to pay`,
        discount: toDiscount(row!),
        payoff: details.payoff,
        remaining: after.toFixed(2),
        paid_off: unlock !== undefined,
        unlock_token: details.unlock_token,
      };
    });
  }

  /**
   * Voids a discount given by mistake: what it took off is back on the account it was given on, and the row says who
   * voided it, when and why (item.discount_voided, device.discount_voided). The account may have moved to a
   * replacement since (a swap, or several): it is taken back from the device the account is on now. Only while that
   * account goes on (not after the device went to someone else) and the device is not paid off: an unlock code cannot
   * be taken back.
   */
  voidDiscount(orgId: string, user: AuthUser, discountId: number, input: { reason: string }): Promise<DiscountVoidReply> {
    return this.database.transaction(async (run) => {
      const [found] = await run<{ item_id: number; customer_id: number; given_at: Date }>(Prisma.sql`
        SELECT item_id, customer_id, given_at FROM device_discounts WHERE organization_id = ${orgId} AND discount_id = ${discountId}::int`);
      if (!found) throw Errors.notFound('Discount');
      // The device first, as giving one locks it, then the discount.
      const item = await this.tokens.lockItem(run, orgId, await this.accountHolder(run, orgId, found));
      const [row] = await run<DiscountRow>(discountsSql(orgId, Prisma.sql`d.discount_id = ${discountId}::int`, Prisma.sql`FOR UPDATE OF d`));
      const serial = item.serial_number;
      const said = (v: Prisma.Decimal) => amountText(row!.currency, v.toFixed(2));
      if (row!.voided_at) throw Errors.conflict(`This discount was voided already, by ${row!.voided_by ?? 'someone'}`);
      if (item.customer_id !== row!.customer_id || item.discount.lessThan(row!.amount)) {
        throw Errors.conflict(`The account of ${row!.customer_name} on ${serial} this discount was given on has ended: there is nothing to take it back from`);
      }
      if (item.paid_off_at) throw Errors.conflict(`Device ${serial} is paid off: its unlock code cannot be taken back, so the discount stays`);
      item.discount = item.discount.minus(row!.amount);
      const payoff = lockedPayoff(item);
      const remaining = payoff === null ? new Prisma.Decimal(0) : Prisma.Decimal.max(payoff.minus(item.total_paid), 0);
      const details = {
        discount_id: discountId,
        serial_number: serial,
        item_id: item.item_id,
        customer_id: row!.customer_id,
        customer_name: row!.customer_name,
        amount: row!.amount.toFixed(2),
        currency: row!.currency,
        reason: input.reason,
        remaining: remaining.toFixed(2),
        voided_by: user.username,
      };
      const description =
        `Discount of ${row!.currency} ${row!.amount.toFixed(2)} on ${serial} (${row!.customer_name}), given by ${row!.given_by ?? 'someone'}, ` +
        `voided by ${user.username} (${remaining.toFixed(2)} left to pay now): ${input.reason}`;
      const [voided] = await run<DiscountRow>(Prisma.sql`
        WITH wv AS (${webhookEventSql(orgId, 'device.discount_voided', details)} RETURNING 1),
        d0 AS (
          UPDATE items SET discount = discount - ${row!.amount.toFixed(2)}::numeric, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${item.item_id}::int RETURNING 1
        ), au AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'item.discount_voided', 'item', ${serial}, ${description.slice(0, 1000)},
                  ${JSON.stringify(details)}::jsonb)
          RETURNING 1
        ), d AS (
          UPDATE device_discounts SET voided_at = now(), voided_by = ${user.username}, void_reason = ${input.reason}
          WHERE organization_id = ${orgId} AND discount_id = ${discountId}::int
          RETURNING *
        )
        SELECT ${DISCOUNT_COLUMNS}
        FROM d
        JOIN items i ON i.organization_id = d.organization_id AND i.item_id = d.item_id
        JOIN customers c ON c.organization_id = d.organization_id AND c.customer_id = d.customer_id`);
      return {
        message: `Discount of ${said(row!.amount)} on ${serial} voided: ${said(remaining)} left to pay`,
        discount: toDiscount(voided!),
        remaining: remaining.toFixed(2),
      };
    });
  }

  /**
   * The device a discount's account is on now: the one it was given on, or the replacement each swap of that
   * customer's device since moved the account to (device_swaps, in order).
   */
  private async accountHolder(run: Run, orgId: string, given: { item_id: number; customer_id: number; given_at: Date }): Promise<number> {
    let holder = given.item_id;
    let since = given.given_at;
    for (let hops = 0; hops < MAX_SWAPS_FOLLOWED; hops++) {
      const [next] = await run<{ new_item_id: number; swapped_at: Date }>(Prisma.sql`
        SELECT new_item_id, swapped_at FROM device_swaps
        WHERE organization_id = ${orgId} AND old_item_id = ${holder}::int AND customer_id = ${given.customer_id}::int AND swapped_at >= ${since}
        ORDER BY swapped_at, swap_id LIMIT 1`);
      if (!next) break;
      holder = next.new_item_id;
      since = next.swapped_at;
    }
    return holder;
  }

  /** The customer's discounts over all their devices, newest first, and the total on the accounts they hold now. */
  async listByCustomer(orgId: string, customerId: number): Promise<DeviceDiscountList> {
    const [customer] = await this.database.query<{ total: Prisma.Decimal }>(Prisma.sql`
      SELECT (SELECT coalesce(sum(i.discount), 0) FROM items i WHERE i.organization_id = c.organization_id AND i.customer_id = c.customer_id) AS total
      FROM customers c WHERE c.organization_id = ${orgId} AND c.customer_id = ${customerId}::int`);
    if (!customer) throw Errors.notFound('Customer');
    const rows = await this.database.query<DiscountRow>(discountsSql(orgId, Prisma.sql`d.customer_id = ${customerId}::int`, NEWEST_500));
    return { data: rows.map(toDiscount), total: money(customer.total) };
  }

  /**
   * The device's discounts, newest first: those given on it (an earlier customer's account's too), and those its
   * present account brought from the devices a swap replaced (given on them while the account was there); with the
   * total on its present account.
   */
  async list(orgId: string, serialNumber: string): Promise<DeviceDiscountList> {
    const s = serialWhere(serialNumber);
    const [device] = await this.database.query<{ item_id: number; serial_number: string; discount: Prisma.Decimal }>(Prisma.sql`
      SELECT i.item_id, i.serial_number, i.discount FROM items i WHERE i.organization_id = ${orgId} AND ${s.where} ${s.order} LIMIT 1`);
    if (!device) throw Errors.notFound('Device');
    const rows = await this.database.query<DiscountRow>(Prisma.sql`
      WITH RECURSIVE account AS (
        -- The present account on the device, then, link by link, the assignment of the device it was swapped from that
        -- the swap ended (the same customer's, the last before), with when the account left it.
        SELECT a.item_id, a.customer_id, a.assigned_at, a.swapped_from_item_id, NULL::timestamptz AS left_at, 0 AS hops
        FROM item_assignments a
        WHERE a.organization_id = ${orgId} AND a.item_id = ${device.item_id}::int AND a.unassigned_at IS NULL
        UNION ALL
        SELECT p.item_id, p.customer_id, p.assigned_at, p.swapped_from_item_id, link.assigned_at, link.hops + 1
        FROM account link
        JOIN LATERAL (
          SELECT b.item_id, b.customer_id, b.assigned_at, b.swapped_from_item_id FROM item_assignments b
          WHERE b.organization_id = ${orgId} AND b.item_id = link.swapped_from_item_id AND b.customer_id = link.customer_id
            AND b.assigned_at <= link.assigned_at
          ORDER BY b.assigned_at DESC, b.assignment_id DESC LIMIT 1
        ) p ON true
        WHERE link.swapped_from_item_id IS NOT NULL AND link.hops < ${MAX_SWAPS_FOLLOWED}::int
      )
      ${discountsSql(
        orgId,
        Prisma.sql`(d.item_id = ${device.item_id}::int OR EXISTS (
          SELECT 1 FROM account k WHERE k.hops > 0 AND d.item_id = k.item_id AND d.customer_id = k.customer_id
            AND d.given_at >= k.assigned_at AND d.given_at <= k.left_at))`,
        NEWEST_500,
      )}`);
    return { data: rows.map(toDiscount), total: money(device.discount) };
  }
}
