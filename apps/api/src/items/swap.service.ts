import { Injectable, NotFoundException } from '@nestjs/common';
import type { z } from 'zod';
import type { DeviceSwap, DeviceSwapsReply, ItemSwapReply, ZDeviceSwapsQuerySchema, ZItemSwapSchema } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService, type Run } from '../database/database.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { TokensService, tokenIssuedData } from '../tokens/tokens.service.js';
import { serialWhere, tokenColumnsSql, tokenInsertsSql } from '../tokens/token-device.js';
import { toWarranty, warrantyJoin, type WarrantyColumns } from '../warranties/warranty.js';
import { webhookEventSql } from '../webhooks/webhook-events.js';
import { returnMoveSql, returnPlace } from './return-place.js';

type SwapInput = z.output<typeof ZItemSwapSchema>;
type SwapsQuery = z.output<typeof ZDeviceSwapsQuerySchema>;

const DAY_MS = 86_400_000;

/** The whole days of credit left at `now` (rounded up: the customer loses no part of a day to the swap). */
export function daysLeft(creditUntil: Date | null, now: Date): number {
  if (!creditUntil || creditUntil <= now) return 0;
  return Math.ceil((creditUntil.getTime() - now.getTime()) / DAY_MS);
}

/**
 * Device swaps: a customer's faulty device replaced by one from stock, in one
 * transaction on both locked devices (the customer's first, then the
 * replacement: the order a payment to the old serial takes too).
 *
 * The account goes with the customer (README "Device swaps"): what they paid,
 * the credit not yet turned into days, the activation or payoff, the days
 * given without payment, the date the account began (so what their plan
 * expects by today is unchanged) and the plan of the device's own move to the
 * replacement, which is given a code for them at once: set_time with the
 * days left, or unlock for a paid-off account. Its OpenPAYGO count and key
 * are its own, as always. The old device gets the set_time 0 code that locks
 * it (unless it is off for good), an empty account, and goes to maintenance
 * or is retired, where it was given from or at the place location_id names.
 *
 * A swap is no sale: the replacement's assignment names the device it
 * continues (swapped_from_item_id), so the Agent, Documents and Portfolio
 * reports count the account once, from the day it began. Payments stay on the
 * device they were applied to (they say what the customer paid to); a payment
 * sent to the old serial afterwards reaches the replacement.
 */
@Injectable()
export class SwapService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: TokensService,
  ) {}

  swap(orgId: string, user: AuthUser, input: SwapInput): Promise<ItemSwapReply> {
    return this.database.transaction(async (run) => {
      const old = await this.tokens.lockBySerial(run, orgId, input.item_serial_number);
      if (old.customer_id === null) {
        throw Errors.conflict(`Device ${old.serial_number} is not assigned to a customer: there is nothing to swap`);
      }
      const next = await this.tokens.lockBySerial(run, orgId, input.new_serial_number).catch((e: unknown) => {
        if (e instanceof NotFoundException) {
          throw Errors.badRequest('new_serial_number', `no device ${input.new_serial_number} in your organization`);
        }
        throw e;
      });
      if (next.item_id === old.item_id) throw Errors.badRequest('new_serial_number', 'must be another device than item_serial_number');
      if (next.customer_id !== null || next.is_assigned) {
        throw Errors.conflict(`Device ${next.serial_number} is assigned to ${next.customer_name ?? 'another customer'}: the replacement must come from stock`);
      }
      if (next.status !== 'available') {
        throw Errors.conflict(`Device ${next.serial_number} is ${next.status === 'retired' ? 'retired' : 'under maintenance'}: the replacement must be available stock`);
      }
      const now = new Date();
      const customerId = old.customer_id;
      const customerName = old.customer_name ?? `customer ${customerId}`;
      const place = await returnPlace(run, orgId, old.item_id, input.location_id);
      const ticket = input.ticket_id === undefined ? null : await this.ticket(run, orgId, input.ticket_id, old.item_id, old.serial_number);

      // The account, as the old device carries it before its lock code moves anything.
      const account = {
        total_paid: old.total_paid,
        credit: old.credit,
        activated_at: old.activated_at,
        paid_off_at: old.paid_off_at,
        credit_until: old.credit_until,
        assigned_at: old.assigned_at,
      };
      // The faulty device's warranty today, from the day the account began (README "Warranties").
      const [covered] = await run<WarrantyColumns>(Prisma.sql`
        SELECT i.assigned_at, warranty.warranty_months, warranty.warranty_until FROM items i ${warrantyJoin('i')}
        WHERE i.organization_id = ${orgId} AND i.item_id = ${old.item_id}::int`);
      const warranty = covered ? toWarranty(covered, now) : null;
      const paidOff = account.paid_off_at !== null;
      const days = paidOff ? 0 : daysLeft(account.credit_until, now);

      // The replacement's code, made for its own count, as the customer's device.
      Object.assign(next, { is_assigned: true, customer_id: customerId, customer_name: old.customer_name });
      const [code] = paidOff
        ? this.tokens.plan(next, [{ type: 'unlock' }])
        : days > 0
          ? this.tokens.plan(next, [{ type: 'set_time', days }], 'new_serial_number')
          : [];
      next.activated_at = account.activated_at;
      next.paid_off_at = account.paid_off_at;
      // No code: the account's credit date (run out already, or none) stays what Collections counts from.
      if (!code) next.credit_until = account.credit_until;

      // The old device: locked, and its account emptied (it is the replacement's now).
      const [lock] = input.lock ? this.tokens.plan(old, [{ type: 'set_time', days: 0 }]) : [];
      Object.assign(old, { credit_until: null, activated_at: null, paid_off_at: null });

      const codeWrites = code ? tokenInsertsSql({ orgId, item: next, generatedBy: user.username, actor: user, paymentId: null }, [code], null) : null;
      const lockWrites = lock ? tokenInsertsSql({ orgId, item: old, generatedBy: user.username, actor: user, paymentId: null }, [lock], null) : null;
      const tokenType = (code?.kind ?? null) as 'set_time' | 'unlock' | null;
      const details = {
        customer_id: customerId,
        customer_name: customerName,
        old_serial_number: old.serial_number,
        new_serial_number: next.serial_number,
        reason: input.reason,
        total_paid: account.total_paid.toFixed(2),
        days_moved: days,
        paid_off: paidOff,
        credit_until: next.credit_until?.toISOString() ?? null,
        token_type: tokenType,
        token_count: code?.count ?? null,
        lock_token_count: lock?.count ?? null,
        status: input.status,
        location: place.to.name,
        ticket_id: ticket?.ticket_id ?? null,
        warranty_until: warranty?.until ?? null,
        in_warranty: warranty?.in_warranty ?? null,
      };
      const description =
        `Device ${old.serial_number} of ${customerName} swapped for ${next.serial_number} by ${user.username}` +
        `${paidOff ? ', paid off' : `, ${days} day(s) moved`}${lock ? `, the old one locked with token count ${lock.count}` : ''}: ${input.reason}`;
      const events = [
        webhookEventSql(orgId, 'device.swapped', {
          ...details,
          old_item_id: old.item_id,
          new_item_id: next.item_id,
          token: code ? { token: code.token, token_type: code.kind, token_count: code.count, days: code.days } : null,
          lock_token: lock ? { token: lock.token, token_count: lock.count } : null,
          swapped_by: user.username,
          swapped_at: now.toISOString(),
        }),
        ...(code ? [webhookEventSql(orgId, 'token.issued', tokenIssuedData(next, code, user.username))] : []),
        ...(lock ? [webhookEventSql(orgId, 'token.issued', tokenIssuedData(old, lock, user.username))] : []),
      ];
      const tokenCtes = (writes: typeof codeWrites, n: string) =>
        writes
          ? Prisma.sql`${Prisma.raw(`tl${n}`)} AS (${writes.logs} RETURNING 1), ${Prisma.raw(`al${n}`)} AS (${writes.audits} RETURNING 1),
              ${Prisma.raw(`ex${n}`)} AS (${writes.expire} RETURNING 1),`
          : Prisma.empty;
      const note = `Swapped for ${next.serial_number}: ${input.reason}`.slice(0, 300);
      const [row] = await run<{ swap_id: number }>(Prisma.sql`
        WITH ${tokenCtes(codeWrites, '1')} ${tokenCtes(lockWrites, '2')}
        ${Prisma.join(events.map((e, i) => Prisma.sql`${Prisma.raw(`w${i}`)} AS (${e} RETURNING 1),`), ' ')}
        ${returnMoveSql(orgId, old, place, user, note)}
        -- Every sub-statement reads the rows as they were before this statement: a is the old device's account.
        a AS (SELECT credit, total_paid, free_days, discount FROM items WHERE organization_id = ${orgId} AND item_id = ${old.item_id}::int),
        n AS (
          UPDATE items SET ${tokenColumnsSql(next)}, is_assigned = true, status = 'assigned', customer_id = ${customerId}::int,
                           assigned_at = ${account.assigned_at?.toISOString() ?? now.toISOString()}::timestamptz,
                           credit = a.credit, total_paid = a.total_paid, free_days = a.free_days, discount = a.discount, updated_at = now()
          FROM a WHERE organization_id = ${orgId} AND item_id = ${next.item_id}::int RETURNING 1
        ), o AS (
          UPDATE items SET ${tokenColumnsSql(old)}, is_assigned = false, customer_id = NULL, assigned_at = NULL,
                           credit = 0, total_paid = 0, free_days = 0, discount = 0,
                           status = ${input.status}::"ItemStatus", location_id = ${place.to.location_id}::int, updated_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${old.item_id}::int RETURNING 1
        ), ia AS (
          UPDATE item_assignments SET unassigned_at = now()
          WHERE organization_id = ${orgId} AND item_id = ${old.item_id}::int AND unassigned_at IS NULL RETURNING 1
        ), ib AS (
          INSERT INTO item_assignments (organization_id, item_id, customer_id, assigned_by, swapped_from_item_id)
          VALUES (${orgId}, ${next.item_id}::int, ${customerId}::int, ${user.username}, ${old.item_id}::int) RETURNING 1
        ), cr AS (
          -- The payment reminders of the credit still running are the account's too: a customer
          -- reminded that their credit runs out on a day is not reminded of that day again by the replacement.
          INSERT INTO credit_reminders (organization_id, item_id, ends_on, credit_until, customer_id, message_id)
          SELECT organization_id, ${next.item_id}::int, ends_on, credit_until, customer_id, message_id FROM credit_reminders
          WHERE organization_id = ${orgId} AND item_id = ${old.item_id}::int AND credit_until > ${now.toISOString()}::timestamptz
          ON CONFLICT DO NOTHING RETURNING 1
        ), ta AS (
          -- A plan of the device's own is part of the account: it goes with it.
          UPDATE template_assignments SET item_id = ${next.item_id}::int
          WHERE organization_id = ${orgId} AND item_id = ${old.item_id}::int AND is_active RETURNING 1
        ), ${
          ticket
            ? Prisma.sql`tk AS (
          -- The ticket's history (its Activity Log entries) says what was done about the fault.
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'ticket.device_swapped', 'ticket', ${String(ticket.ticket_id)},
                  ${`Ticket #${ticket.ticket_id} (device ${old.serial_number}): Device swapped for ${next.serial_number}: ${input.reason}`.slice(0, 1000)},
                  ${JSON.stringify({ item_id: old.item_id, customer_id: customerId, new_serial_number: next.serial_number })}::jsonb)
          RETURNING 1
        ), tu AS (
          UPDATE service_tickets SET updated_at = now() WHERE organization_id = ${orgId} AND ticket_id = ${ticket.ticket_id}::int RETURNING 1
        ),`
            : Prisma.empty
        } au AS (
          INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata)
          VALUES (${orgId}, ${user.user_id}::int, ${user.username}, 'item.swapped', 'item', ${old.serial_number}, ${description.slice(0, 1000)},
                  ${JSON.stringify(details)}::jsonb)
          RETURNING 1
        )
        INSERT INTO device_swaps (organization_id, customer_id, old_item_id, new_item_id, swapped_at, swapped_by, reason, total_paid,
                                  days_moved, paid_off, token_type, token_count, lock_token_count, old_status, warranty_until)
        VALUES (${orgId}, ${customerId}::int, ${old.item_id}::int, ${next.item_id}::int, ${now.toISOString()}::timestamptz, ${user.username},
                ${input.reason}, ${account.total_paid.toFixed(2)}::numeric, ${days}::int, ${paidOff}, ${tokenType}, ${code?.count ?? null}::int,
                ${lock?.count ?? null}::int, ${input.status}::"ItemStatus", ${warranty?.until ?? null}::timestamptz)
        RETURNING swap_id`);
      return {
        message: `Device ${old.serial_number} swapped for ${next.serial_number}: ${customerName}'s account is on ${next.serial_number} now`,
        swap_id: row!.swap_id,
        customer_id: customerId,
        customer_name: customerName,
        old_serial_number: old.serial_number,
        new_serial_number: next.serial_number,
        token: code ? { token: code.token, token_type: tokenType!, token_count: code.count, days: Math.round(code.days) } : null,
        lock_token: lock ? { token: lock.token, token_count: lock.count } : null,
        total_paid: account.total_paid.toFixed(2),
        days_moved: days,
        paid_off: paidOff,
        credit_until: next.credit_until?.toISOString() ?? null,
        status: input.status,
        location_id: place.to.location_id,
        location_name: place.to.name,
        ticket_id: ticket?.ticket_id ?? null,
        warranty,
      };
    });
  }

  /** The old device's ticket the swap answers, locked: 400 naming ticket_id for another's, a resolved one or none. */
  private async ticket(run: Run, orgId: string, ticketId: number, itemId: number, serial: string) {
    const [ticket] = await run<{ ticket_id: number; item_id: number; status: string }>(Prisma.sql`
      SELECT ticket_id, item_id, status::text AS status FROM service_tickets
      WHERE organization_id = ${orgId} AND ticket_id = ${ticketId}::int FOR UPDATE`);
    if (!ticket) throw Errors.badRequest('ticket_id', `no ticket #${ticketId} in your organization`);
    if (ticket.item_id !== itemId) throw Errors.badRequest('ticket_id', `ticket #${ticketId} is about another device than ${serial}`);
    if (ticket.status === 'resolved') throw Errors.badRequest('ticket_id', `ticket #${ticketId} is resolved already`);
    return ticket;
  }

  /** Newest first; a device's swaps (either side) or a customer's. */
  async list(orgId: string, q: SwapsQuery): Promise<DeviceSwapsReply> {
    const filters: Prisma.Sql[] = [];
    if (q.serial_number) {
      // The device by its serial as everywhere (exact, else ignoring case, spaces and dashes); its swaps either way.
      const s = serialWhere(q.serial_number);
      filters.push(Prisma.sql`EXISTS (SELECT 1 FROM items i WHERE i.organization_id = ${orgId} AND ${s.where}
                                       AND i.item_id IN (s.old_item_id, s.new_item_id))`);
    }
    if (q.customer_id !== undefined) filters.push(Prisma.sql`s.customer_id = ${q.customer_id}::int`);
    const where = Prisma.sql`s.organization_id = ${orgId} ${filters.length ? Prisma.sql`AND ${Prisma.join(filters, ' AND ')}` : Prisma.empty}`;
    const offset = (q.page - 1) * q.limit;
    const [rows, [count]] = await Promise.all([
      this.database.read.$queryRaw<
        (Omit<DeviceSwap, 'swapped_at' | 'total_paid' | 'warranty_until'> & { swapped_at: Date; total_paid: Prisma.Decimal; warranty_until: Date | null })[]
      >`
        SELECT s.swap_id, s.swapped_at, s.swapped_by, s.reason, s.customer_id, c.customer_name, o.serial_number AS old_serial_number,
               n.serial_number AS new_serial_number, s.total_paid, s.days_moved, s.paid_off, s.token_type, s.token_count,
               s.lock_token_count, s.old_status::text AS old_status, s.warranty_until,
               CASE WHEN s.warranty_until IS NOT NULL THEN s.swapped_at < s.warranty_until END AS in_warranty
        FROM device_swaps s
        JOIN customers c ON c.organization_id = s.organization_id AND c.customer_id = s.customer_id
        JOIN items o ON o.organization_id = s.organization_id AND o.item_id = s.old_item_id
        JOIN items n ON n.organization_id = s.organization_id AND n.item_id = s.new_item_id
        WHERE ${where}
        ORDER BY s.swapped_at DESC, s.swap_id DESC LIMIT ${q.limit}::int OFFSET ${offset}::int`,
      this.database.read.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM device_swaps s WHERE ${where}`,
    ]);
    const total = count?.total ?? 0;
    return {
      data: rows.map((r) => ({
        ...r,
        swapped_at: r.swapped_at.toISOString(),
        total_paid: r.total_paid.toFixed(2),
        warranty_until: r.warranty_until?.toISOString() ?? null,
      })),
      pagination: { total, total_pages: Math.ceil(total / q.limit), page: q.page, limit: q.limit },
    };
  }
}

